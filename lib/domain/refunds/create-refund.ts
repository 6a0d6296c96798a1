/**
 * A merchant's refund of a payment: to an address the merchant gives (sent at once, as a payout
 * from the payment's domain wallet — or, when that wallet lacks the tokens yet, recorded
 * `awaiting_funds` and sent once it can: awaiting-funds.ts), or as a claim the payer completes at
 * claimUrl. The claim link carries a secret (claim-secret.ts) that only this answer holds: the
 * row keeps its hash, and a replay of the request answers without it (claim-link.ts issues a new one).
 * Above the approval threshold a second member approves the refund with its destination: the
 * merchant's address now, or the payer's once claimed (refund-approvals.ts).
 * Never beyond what the payment received: the amount is checked again under the session's row
 * lock against its other active refunds, so concurrent refunds cannot together exceed it.
 *
 * A repeated request (the API key's Idempotency-Key, the dashboard form's request id) must answer
 * the first refund even once that refund used up the payment: only the body's shape is checked
 * before the key is looked up; everything that depends on the payment's state now is checked
 * inside the key's transaction (`recordRefund`).
 *
 * A fiat-priced payment's refund has a basis (refund-rate.ts): the tokens paid, or a fiat amount
 * at today's rate — read from the feeds before any transaction, refused (if it must be) inside it.
 */

import { randomUUID } from "node:crypto";
import { type AuditOrigin, audit } from "../../accounts/audit/audit-origin";
import { getConfig } from "../../base/config";
import type { AppError } from "../../base/errors";
import { formatAmount, parseAmount } from "../../base/money";
import type { Db } from "../../db";
import type { RecordedWithdrawal } from "../../db/schema";
import { approvalNeeded } from "../approval-requests/approval-needed";
import { requestApproval } from "../approval-requests/approval-records";
import { type IdempotentRequest, runIdempotent } from "../idempotency/idempotency";
import { findSessionInScope, type SessionScope } from "../payments/find-session";
import { amountRefusal, paymentRefusal } from "../payments/reasons";
import type { SessionWithToken } from "../payments/session-view";
import { assertWithdrawable } from "../tokens/withdrawal-rules";
import { lockAccountForMoneyOut } from "../transfers/money-out-locks";
import { recordTransfer, reserveTransfer } from "../transfers/record-transfer";
import { withGasTopUps } from "../transfers/send-transfer";
import { awaitingFundsReason, isShortOfTokens } from "./awaiting-funds";
import { type ClaimSecret, newClaimSecret } from "./claim-secret";
import { findRefund } from "./find-refund";
import { refundRefusal } from "./reasons";
import { REFUND_SCOPE, refundPayout, sendRefundPayout } from "./refund-payouts";
import {
  basisColumns,
  type FiatRefundTerms,
  fiatExceedsRefundable,
  fiatRefundable,
  priceFiatRefund,
  type RequestedBasis,
  requestedBasis,
} from "./refund-rate";
import { emitRefundEvents, insertRefund } from "./refund-records";
import { assertPayable, assertWalletCanPay, lockedAmounts, sessionDomain } from "./refund-rules";
import { type RefundView, toRefundView, withClaimUrl } from "./refund-view";
import { NO_DEFAULT_REFUND, REFUND_REFUSALS, type RefundAmounts } from "./refundable";
import type { CreateRefundInput } from "./schemas";

export interface RefundCreator {
  scope: SessionScope;
  /** The request's key — the API key's Idempotency-Key, or the dashboard form's request id (body null) — or none. */
  idempotency: { key: string; body: unknown } | null;
  /**
   * The member behind the request: the dashboard's member, or the API key's creator (docs/design.md §26).
   * They alone may issue a new claim link; on the dashboard they request its approval, and cannot approve it.
   */
  member: number | null;
  /** Who asked, for the audit log. */
  origin?: AuditOrigin;
}

/** One refund request, its body's shape checked. */
interface RefundPlan {
  found: SessionWithToken;
  input: CreateRefundInput;
  requested: bigint | undefined;
  basis: RequestedBasis;
  /** basis "fiat": the rate read before the transaction, or the refusal to throw in it. */
  priced: { ok: true; terms: FiatRefundTerms } | { ok: false; error: unknown } | null;
  refundId: string;
  apiKeyId: number | null;
  member: number | null;
  /** A claim's link secret (no toAddress): its hash is stored, the secret goes into this answer only. */
  claim: ClaimSecret | null;
}

export async function createRefund(
  db: Db,
  creator: RefundCreator,
  sessionId: string,
  input: CreateRefundInput,
): Promise<{ view: RefundView; replayed: boolean }> {
  const found = await findSessionInScope(db, creator.scope, sessionId);
  const { decimals } = found.token;
  // The body's shape only (see above).
  if (input.toAddress) await assertPayable(db, input.toAddress, "toAddress");
  const requested = input.amount === undefined ? undefined : parseAmount(input.amount, decimals);
  if (typeof requested === "string") throw amountRefusal("amount", requested, decimals);
  if (requested === 0n) throw paymentRefusal("VALIDATION_ERROR", "amount-zero", "amount must be greater than 0");
  const basis = requestedBasis(found, input);
  // A node that does not answer is a refusal too, thrown in the key's transaction: a replay still answers.
  const priced =
    basis.kind === "fiat" ? await priceFiatRefund(db, found, basis.fiat).catch((error: unknown) => ({ ok: false as const, error })) : null;

  const apiKeyId = "apiKeyId" in creator.scope ? creator.scope.apiKeyId : null;
  const claim = input.toAddress ? null : newClaimSecret();
  const plan: RefundPlan = { found, input, requested, basis, priced, refundId: randomUUID(), apiKeyId, member: creator.member, claim };
  const request: IdempotentRequest | null = creator.idempotency && {
    owner: apiKeyId === null ? { userId: found.session.userId } : { apiKeyId },
    scope: REFUND_SCOPE,
    ...creator.idempotency,
  };

  const answer = await withGasTopUps(db, async (afterTopUp) => {
    let payout: RecordedWithdrawal | undefined;
    const record = async (tx: Db) => {
      payout = await recordRefund(tx, plan, afterTopUp);
      if (creator.origin)
        await audit(tx, creator.origin, {
          action: "refund.requested",
          target: { type: "refund", id: plan.refundId },
          after: { sessionId, amount: input.amount ?? null, fiatAmount: input.fiatAmount ?? null, toAddress: input.toAddress ?? null },
        });
      return { status: 201, body: { refundId: plan.refundId } };
    };
    const result = request ? await runIdempotent(db, request, record) : { ...(await db.transaction(record)), replayed: false };
    return { refundId: result.body.refundId, replayed: result.replayed, payout: result.replayed ? undefined : payout };
  });
  if (answer.payout) await sendRefundPayout(db, answer.payout);
  const view = toRefundView(await findRefund(db, creator.scope, answer.refundId));
  // A replay's answer never has the link: its secret exists nowhere but in the first answer.
  return { view: plan.claim && !answer.replayed ? withClaimUrl(view, plan.claim.secret) : view, replayed: answer.replayed };
}

/**
 * In the request's transaction: checks against the payment as it is now, then records the refund
 * — with its payout when it has an address (both or neither; refund.created once the payout
 * exists: it names the withdrawal), or waiting for the payer's address, or for the funds.
 */
async function recordRefund(tx: Db, plan: RefundPlan, afterTopUp: boolean): Promise<RecordedWithdrawal | undefined> {
  const { session, token } = plan.found;
  await lockAccountForMoneyOut(tx, session.userId); // first: the one lock order of money out
  const { toAddress } = plan.input;
  // A claim refund is checked now too: a claim URL that can only fail is never handed out.
  const tokenRow = await assertWalletCanPay(tx, session);
  // Decided before any lock (the payout's simulation needs it); checked again under the lock.
  const estimate = amountsOrRefuse(await lockedAmounts(tx, session.id, { lock: false }));
  const terms = fiatTerms(plan);
  const units = terms?.units ?? plan.requested ?? defaultOrRefuse(estimate.byDefault);
  assertWithin(units, estimate.refundable, token, terms);
  await assertWithdrawable(tx, tokenRow, units);

  const needsApproval = (await approvalNeeded(tx, session.userId, session.tokenId, units)).needed;
  if (needsApproval && !toAddress) {
    // Above the threshold without an address: the claim opens, and the payer's address goes to approval (refund-approvals.ts).
    await tx.transaction((inner) => insertAndAnnounce(inner, plan, units, { awaitingApproval: true }));
    return undefined;
  }
  if (needsApproval) {
    // Above the account's threshold: it waits for a second member, who approves it with its address (refund-approvals.ts).
    await tx.transaction(async (inner) => {
      const created = await insertRefundRow(inner, plan, units, { awaitingApproval: true });
      await requestApproval(inner, {
        accountId: session.userId,
        kind: "refund",
        subjectId: created.refund.id,
        domainId: sessionDomain(session),
        tokenId: session.tokenId,
        amount: units,
        requestedBy: { userId: plan.member, apiKeyId: plan.apiKeyId },
      });
    });
    return undefined;
  }
  if (!toAddress) {
    await tx.transaction((inner) => insertAndAnnounce(inner, plan, units, {}));
    return undefined;
  }
  try {
    return await tx.transaction(async (inner) => {
      const refund = { id: plan.refundId, userId: session.userId, apiKeyId: plan.apiKeyId, amount: units };
      const reserved = await reserveTransfer(inner, refundPayout(session, refund, token.decimals, toAddress), { afterTopUp });
      // Under the wallet's and the merchant's locks, then the payment's (lockedAmounts).
      const created = await insertRefundRow(inner, plan, units, {});
      const payout = await recordTransfer(inner, reserved);
      await emitRefundEvents(inner, created.refund, created.events, created.now);
      return payout;
    });
  } catch (error) {
    // The wallet lacks the tokens (nothing was recorded): the refund waits for them, sent by the job.
    if (!isShortOfTokens(error)) throw error;
    const reason = await awaitingFundsReason(tx, session.id, error, token);
    await tx.transaction((inner) => insertAndAnnounce(inner, plan, units, { awaitingFunds: reason }));
    return undefined;
  }
}

async function insertAndAnnounce(
  tx: Db,
  plan: RefundPlan,
  units: bigint,
  options: { awaitingFunds?: string; awaitingApproval?: boolean },
): Promise<void> {
  const created = await insertRefundRow(tx, plan, units, options);
  await emitRefundEvents(tx, created.refund, created.events, created.now);
}

/** The refund's row, under the payment's lock: the amount checked again against its other refunds now. */
async function insertRefundRow(tx: Db, plan: RefundPlan, units: bigint, options: { awaitingFunds?: string; awaitingApproval?: boolean }) {
  const { session, token } = plan.found;
  const now = new Date();
  const locked = amountsOrRefuse(await lockedAmounts(tx, session.id, { lock: true }));
  // Without an amount, the refund is what is left *now*: a concurrent refund may have taken the overpaid part.
  const terms = fiatTerms(plan);
  if (plan.requested === undefined && terms === null && locked.byDefault !== units) {
    throw defaultMoved(units, defaultOrRefuse(locked.byDefault), token.decimals);
  }
  assertWithin(units, locked.refundable, token, terms);
  const claimExpiresAt = new Date(now.getTime() + getConfig().refundClaimTtlSeconds * 1000);
  const values = {
    id: plan.refundId,
    sessionId: session.id,
    userId: session.userId,
    apiKeyId: plan.apiKeyId,
    createdBy: plan.member,
    amount: units,
  };
  const claim = { toAddress: plan.input.toAddress ?? null, claimSecretHash: plan.claim?.hash ?? null, claimExpiresAt };
  const row = { ...values, ...claim, ...basisColumns(plan.basis, terms) };
  return { ...(await insertRefund(tx, row, now, options)), now };
}

function amountsOrRefuse(amounts: RefundAmounts): Extract<RefundAmounts, { ok: true }> {
  if (!amounts.ok) {
    const { reason, message } = REFUND_REFUSALS[amounts.reason];
    throw refundRefusal("VALIDATION_ERROR", reason, message);
  }
  return amounts;
}

/** No amount, and nothing beyond the price left: refused on `amount`, nothing recorded. */
function defaultOrRefuse(byDefault: bigint | null): bigint {
  if (byDefault === null)
    throw refundRefusal("VALIDATION_ERROR", "refund-no-default-amount", NO_DEFAULT_REFUND, [
      { path: "amount", message: NO_DEFAULT_REFUND },
    ]);
  return byDefault;
}

/** basis "fiat": the rate read before the transaction, or its refusal now. */
function fiatTerms(plan: RefundPlan): FiatRefundTerms | null {
  if (plan.priced === null) return null;
  if (!plan.priced.ok) throw plan.priced.error;
  return plan.priced.terms;
}

function assertWithin(units: bigint, left: bigint, token: { symbol: string; decimals: number }, terms: FiatRefundTerms | null): void {
  const { decimals } = token;
  if (units > left && terms) {
    const atMost = fiatRefundable(left, decimals, terms);
    throw fiatExceedsRefundable(terms, token.symbol, formatAmount(left, decimals), atMost, formatAmount(units, decimals));
  }
  if (units > left) {
    throw refundRefusal(
      "VALIDATION_ERROR",
      "refund-exceeds-refundable",
      `amount ${formatAmount(units, decimals)} is more than this payment can still refund (${formatAmount(left, decimals)})`,
    );
  }
}

function defaultMoved(planned: bigint, now: bigint, decimals: number): AppError {
  return refundRefusal(
    "VALIDATION_ERROR",
    "refund-default-moved",
    `another refund of this payment was created at the same moment: without an amount this refund would now be ${formatAmount(now, decimals)}, not ${formatAmount(planned, decimals)}. Nothing was refunded; check the payment's refunds and send again (with an amount to be sure)`,
  );
}
