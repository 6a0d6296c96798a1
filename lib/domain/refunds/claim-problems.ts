/**
 * What the refund claim page tells the payer when a claim is refused, as one stable key per
 * problem: the page reads it from the answer's `error.reason` (docs/design.md §22; the detail
 * `{path: "problem", message: <key>}` still names it for API clients of the first days), and
 * shows that key's sentence in the payer's language (lib/web/i18n/refund-messages.ts).
 * The payer never reads the merchant's internals (wallet balances, budgets, RPC errors): those are
 * "unavailable", and their real reason goes to the log and to the refund, for the merchant.
 * Pure and free of server imports: the page's client code uses it.
 */

import type { CommonReason, ErrorDetail } from "../../base/errors";
import type { ChainReason } from "../../engine/chain/reasons";
import type { RefundReason } from "./reasons";

export const CLAIM_PROBLEMS = ["invalid-address", "zero-address", "service-address", "not-claimable", "unavailable"] as const;
export type ClaimProblem = (typeof CLAIM_PROBLEMS)[number];

export const CLAIM_PROBLEM_PATH = "problem";

export function claimProblemDetail(problem: ClaimProblem): ErrorDetail {
  return { path: CLAIM_PROBLEM_PATH, message: problem };
}

export function namedClaimProblem(details: readonly ErrorDetail[] | undefined): ClaimProblem | null {
  const named = details?.find((d) => d.path === CLAIM_PROBLEM_PATH)?.message;
  return (CLAIM_PROBLEMS as readonly string[]).includes(named ?? "") ? (named as ClaimProblem) : null;
}

/** The payer's problem of each reason a claim is refused with; any other reason is "unavailable". */
export const CLAIM_PROBLEM_OF_REASON: Partial<Record<RefundReason | ChainReason | CommonReason, ClaimProblem>> = {
  "refund-address-zero": "zero-address",
  "gateway-address": "service-address",
  "refund-not-claimable": "not-claimable",
  "not-found": "not-claimable",
  "refund-claim-unavailable": "unavailable",
};

/** What the page makes of a claim's error answer; none (the network failed, no JSON) is "unavailable". */
export function claimProblemOf(error: { code?: string; reason?: string; details?: ErrorDetail[] } | null | undefined): ClaimProblem {
  const byReason = CLAIM_PROBLEM_OF_REASON[error?.reason as keyof typeof CLAIM_PROBLEM_OF_REASON];
  if (byReason) return byReason;
  const named = namedClaimProblem(error?.details);
  if (named) return named;
  // The request's own shape (the route's schema): the address the payer typed.
  if (error?.code === "VALIDATION_ERROR" && error.details?.some((d) => d.path === "address")) return "invalid-address";
  if (error?.code === "VALIDATION_ERROR" || error?.code === "NOT_FOUND") return "not-claimable";
  return "unavailable";
}
