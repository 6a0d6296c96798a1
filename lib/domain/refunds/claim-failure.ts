/**
 * A payer's claim the merchant's side cannot send — a wallet short of tokens or gas, a package's
 * daily budget, the network, a removed domain or token: the payer is told only "not now" (a
 * stable problem key, 502 or 429 with Retry-After), while the real reason goes to the log and
 * to the refund's `reason`, where the merchant sees it. The refund still waits for a claim.
 */

import { redactUrls } from "../../base/error-text";
import { AppError } from "../../base/errors";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type ClaimProblem, claimProblemDetail, namedClaimProblem } from "./claim-problems";
import { refundRefusal } from "./reasons";
import { applyRefundFact } from "./refund-records";

/** `error`, marked with the payer's problem for the claim page. */
export function payerProblem(error: AppError, problem: ClaimProblem): AppError {
  return new AppError(error.code, error.message, [...(error.details ?? []), claimProblemDetail(problem)], error.headers, error.reason);
}

/** Answers a failed claim: a payer's own problem as it is; anything else as "unavailable", noted for the merchant. */
export async function claimFailure(db: Db, refundId: string, error: unknown): Promise<unknown> {
  if (!(error instanceof AppError)) return error; // a bug: INTERNAL_ERROR, logged with its stack where it is answered
  if (namedClaimProblem(error.details)) return error;
  const reason = redactUrls(error.message);
  log.warn({ refundId, errorCode: error.code, reason }, "a refund claim could not be sent; the refund still waits for a claim");
  await applyRefundFact(db, refundId, { kind: "claim-failed", reason }).catch((noted: unknown) =>
    log.warn({ refundId, err: noted }, "the claim's failure could not be noted on the refund"),
  );
  const limited = error.code === "RATE_LIMITED";
  return refundRefusal(
    limited ? "RATE_LIMITED" : "BLOCKCHAIN_ERROR",
    "refund-claim-unavailable",
    "this refund cannot be sent right now and nothing was sent: try again later, or contact the shop",
    [claimProblemDetail("unavailable")],
    limited ? error.headers : undefined,
  );
}
