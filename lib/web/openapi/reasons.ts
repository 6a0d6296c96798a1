/**
 * Every refusal's reason (docs/design.md §22), gathered from the modules that give them, and the ones
 * each public operation may answer with: the OpenAPI document lists them as enums on
 * `error.reason`, as Stripe lists its `decline_code`s.
 */

import { API_KEY_REASONS } from "../../accounts/api-keys/reasons";
import { MEMBER_REASONS } from "../../accounts/members/reasons";
import { ACCOUNT_REASONS } from "../../accounts/users/reasons";
import { COMMON_REASONS } from "../../base/errors";
import { APPROVAL_REASONS } from "../../domain/approval-requests/reasons";
import { LIMIT_REASONS } from "../../domain/gas/reasons";
import { IDEMPOTENCY_REASONS } from "../../domain/idempotency/reasons";
import { DOMAIN_REASONS } from "../../domain/merchant-domains/reasons";
import { LINK_REASONS } from "../../domain/payment-links/reasons";
import { PAYMENT_REASONS } from "../../domain/payments/reasons";
import { PAYOUT_BATCH_REASONS } from "../../domain/payouts/reasons";
import { PLAN_REASONS } from "../../domain/plans/reasons";
import { PRICING_REASONS } from "../../domain/pricing/reasons";
import { REFUND_REASONS } from "../../domain/refunds/reasons";
import { TOKEN_REASONS } from "../../domain/tokens/reasons";
import { WEBHOOK_REASONS } from "../../domain/webhooks/reasons";
import { WITHDRAWAL_REASONS } from "../../domain/withdrawals/reasons";
import { CHAIN_REASONS } from "../../engine/chain/reasons";
import { SIMULATION_REASONS } from "../../ops/seed/reasons";

export const ALL_REASONS = [
  ...COMMON_REASONS,
  ...ACCOUNT_REASONS,
  ...MEMBER_REASONS,
  ...API_KEY_REASONS,
  ...IDEMPOTENCY_REASONS,
  ...PLAN_REASONS,
  ...LIMIT_REASONS,
  ...DOMAIN_REASONS,
  ...WEBHOOK_REASONS,
  ...TOKEN_REASONS,
  ...PAYMENT_REASONS,
  ...PRICING_REASONS,
  ...LINK_REASONS,
  ...REFUND_REASONS,
  ...WITHDRAWAL_REASONS,
  ...PAYOUT_BATCH_REASONS,
  ...APPROVAL_REASONS,
  ...CHAIN_REASONS,
  ...SIMULATION_REASONS,
] as const;
export type Reason = (typeof ALL_REASONS)[number];

/** What any /api/v1 call may be refused for: its body or ids, its key, its rate. */
const V1: readonly Reason[] = [
  "invalid-request",
  "rate-limited",
  "api-key-missing",
  "api-key-invalid",
  "api-key-scope-missing",
  "two-factor-required-by-account",
];
const AMOUNTS: readonly Reason[] = ["amount-malformed", "amount-zero", "amount-too-precise", "amount-too-large"];

const CREATE_PAYMENT: readonly Reason[] = [
  ...V1,
  ...PAYMENT_REASONS.filter(
    (r) => r !== "payment-not-pending" && r !== "payment-partly-paid" && r !== "payment-not-fiat" && r !== "token-not-offered",
  ),
  ...PRICING_REASONS,
  "scope-exceeds-role",
  "no-plan",
  "plan-quota-used-up",
  "gateway-address",
  ...IDEMPOTENCY_REASONS,
];

/** A transfer out of a domain's withdrawal wallet: a withdrawal, or a refund's send. */
const SEND: readonly Reason[] = [
  ...WITHDRAWAL_REASONS,
  ...CHAIN_REASONS,
  "token-network-not-served",
  "token-withdrawal-not-accepted",
  "withdrawal-below-minimum",
  "daily-withdrawals-used-up",
  "daily-gas-budget-used-up",
];

/** A refund's reasons of what comes after its creation (a claim, a cancel, a new link), never of creating it. */
const REFUND_LATER_REASONS = [
  "refund-not-claimable",
  "refund-claim-unavailable",
  "refund-not-cancellable",
  "refund-link-not-creator",
  "refund-link-unavailable",
  "refund-approval-without-address",
] as const satisfies readonly Reason[];

export const OPERATION_REASONS = {
  createPayment: CREATE_PAYMENT,
  /** Reading a record (a payment, a withdrawal, a refund, their lists). */
  read: [...V1, "not-found"],
  sendWithdrawal: [...V1, ...AMOUNTS, ...SEND, "not-found", ...IDEMPOTENCY_REASONS],
  createRefund: [
    ...V1,
    ...AMOUNTS,
    ...SEND,
    ...REFUND_REASONS.filter((r) => !(REFUND_LATER_REASONS as readonly string[]).includes(r)),
    "not-found",
    ...IDEMPOTENCY_REASONS,
  ],
  cancelRefund: [...V1, "not-found", "refund-not-cancellable"],
  issueClaimLink: [...V1, "not-found", "refund-link-not-creator", "refund-link-unavailable", "refund-approval-without-address"],
  createPayouts: [...V1, ...AMOUNTS, ...SEND, "payout-items-invalid", "gateway-address", "not-found", ...IDEMPOTENCY_REASONS],
  claimRefund: [
    "invalid-request",
    "rate-limited",
    "not-found",
    "refund-address-zero",
    "gateway-address",
    "refund-not-claimable",
    "refund-claim-unavailable",
  ],
  payLink: [
    ...CREATE_PAYMENT.filter(
      (r) =>
        !(V1 as readonly string[]).includes(r) && !(IDEMPOTENCY_REASONS as readonly string[]).includes(r) && r !== "scope-exceeds-role",
    ),
    "invalid-request",
    "rate-limited",
    "not-found",
    "link-inactive",
    "link-amount-missing",
    "link-busy",
    "link-client-busy",
  ],
} satisfies Record<string, readonly Reason[]>;
