/**
 * The functions served at /api/inngest (JOBS=inngest): one per job of the schedule
 * (lib/jobs/schedule.ts); tests/unit/job-schedule.test.ts checks that they match.
 */

import { forwardDeposit } from "./forward-deposit";
import { confirmWithdrawals, expireSessions, reconcileDaily, requeueForwards, sendAwaitingRefunds } from "./maintenance";
import { scanChains } from "./scan-chains";
import { deliverWebhook, dispatchWebhooks } from "./webhooks";

export const functions = [
  scanChains,
  forwardDeposit,
  expireSessions,
  requeueForwards,
  confirmWithdrawals,
  sendAwaitingRefunds,
  dispatchWebhooks,
  deliverWebhook,
  reconcileDaily,
];
