import { forwardDeposit } from "./forward-deposit";
import { expireSessions, requeueForwards } from "./maintenance";
import { scanChains } from "./scan-chains";

export const functions = [scanChains, forwardDeposit, expireSessions, requeueForwards];
