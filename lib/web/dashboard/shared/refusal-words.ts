/**
 * The dashboard's own words for lib's refusals, by reason (docs/design.md §22). lib's messages are
 * written for API clients — they name fields and routes ("set a webhookUrl with PATCH …") and may
 * be re-worded; a reason is the contract. A reason the dashboard has no words of its own for is
 * shown in lib's words. Pure: client components use it too.
 */

import type { CommonReason } from "../../../base/errors";
import type { ApprovalReason } from "../../../domain/approval-requests/reasons";
import type { PaymentReason } from "../../../domain/payments/reasons";
import type { RefundReason } from "../../../domain/refunds/reasons";
import type { NotRefundableReason } from "../../../domain/refunds/refundable";
import type { TransferReason } from "../../../domain/transfers/reasons";
import type { WebhookReason } from "../../../domain/webhooks/reasons";
import type { ChainReason } from "../../../engine/chain/reasons";

export type DashboardWordedReason =
  | WebhookReason
  | RefundReason
  | CommonReason
  | PaymentReason
  | ChainReason
  | TransferReason
  | ApprovalReason;

/** Why a payment's Refunds card offers no Refund button. */
export const NOT_REFUNDABLE_WORDS: Record<NotRefundableReason, string> = {
  "payment-still-pending": "The payment is still pending: cancel it first, or wait until it completes or expires",
  "payment-nothing-received": "Nothing arrived for this payment: there is nothing to refund",
  "payment-fully-refunded": "Everything this payment received is already refunded (or waiting to be claimed or sent)",
};

/**
 * A node that failed or a call that reverted: lib's message quotes the node or viem ("RPC request
 * failed: The contract function "balanceOf" returned no data …"), English for developers, at
 * times with a URL in it. A page says what happened to the money instead — nothing was sent.
 */
export const CHAIN_FAILURE_WORDS = {
  "rpc-failed": "The blockchain network did not answer as expected, so nothing was sent. Try again in a minute.",
  "transfer-would-revert":
    "The token's contract refused this transfer when it was tried out first, so nothing was sent. Check the token and the address, then try again.",
} as const satisfies Partial<Record<TransferReason, string>>;

export const DASHBOARD_REFUSAL_WORDS: Partial<Record<DashboardWordedReason, string>> = {
  "webhook-url-missing": "This domain has no webhook URL yet: save one on the Domains page first.",
  "webhook-url-removed": "This domain has no webhook URL any more: save one on the Domains page to redeliver.",
  "refund-rate-unavailable":
    "The token's price feed has no usable rate right now, so a refund in money cannot be priced. Refund the tokens paid instead, or try again in a few minutes.",
  "approver-needs-two-factor": "Approving is confirmed with a two-factor code: turn two-factor on in Settings first.",
  ...NOT_REFUNDABLE_WORDS,
  ...CHAIN_FAILURE_WORDS,
};

/** An amount a form's field refuses, whatever the form (a refund, a link's price): said under the field. */
export const AMOUNT_WORDS = {
  "amount-malformed": "Enter an amount such as 10.5: digits and at most one dot, no commas or spaces.",
  "amount-zero": "The amount must be more than 0.",
  "amount-too-precise": "Too many digits after the dot for this token.",
  "amount-too-large": "That amount is too large.",
} as const satisfies Partial<Record<PaymentReason, string>>;

/** An address a form's field refuses (a refund's payer address, a payout address): said under the field. */
export const ADDRESS_WORDS = {
  "refund-address-zero": "This address cannot receive tokens: whatever is sent to it is burnt.",
  "gateway-address": "This is an address of this gateway (a deposit address, the gas tank or a wallet): enter a wallet outside it.",
} as const satisfies Partial<Record<DashboardWordedReason, string>>;

/**
 * What the dashboard says for a refusal: its own words for the reason, else lib's message — but a
 * chain failure with no reason of its own (BLOCKCHAIN_ERROR: lib's message may quote the node)
 * reads as the chain failure's words. Decided by code and reason, never by the message's text (§22).
 */
export function dashboardRefusalWords(refusal: { code?: string; reason?: string; message: string }): string {
  const own = DASHBOARD_REFUSAL_WORDS[refusal.reason as DashboardWordedReason];
  if (own) return own;
  return refusal.code === "BLOCKCHAIN_ERROR" && !refusal.reason ? CHAIN_FAILURE_WORDS["rpc-failed"] : refusal.message;
}
