/**
 * The functions served at /api/inngest (JOBS=inngest): one per job of the schedule
 * (lib/ops/jobs/schedule.ts); tests/unit/job-schedule.test.ts checks that they match.
 */

import { forwardDeposit } from "./forward-deposit";
import { expireApprovals, expireSessions, reconcileDaily, requeueForwards, sendAwaitingRefunds, tendLedger } from "./maintenance";
import { scanChains } from "./scan-chains";
import { deliverWebhook, dispatchWebhooks } from "./webhooks";

export const functions = [
  scanChains,
  forwardDeposit,
  expireSessions,
  requeueForwards,
  tendLedger,
  sendAwaitingRefunds,
  expireApprovals,
  dispatchWebhooks,
  deliverWebhook,
  reconcileDaily,
];
