import { forwardDeposit } from "./forward-deposit";
import { confirmWithdrawals, expireSessions, reconcileDaily, requeueForwards } from "./maintenance";
import { scanChains } from "./scan-chains";
import { deliverWebhook, dispatchWebhooks } from "./webhooks";

export const functions = [
  scanChains,
  forwardDeposit,
  expireSessions,
  requeueForwards,
  confirmWithdrawals,
  dispatchWebhooks,
  deliverWebhook,
  reconcileDaily,
];
