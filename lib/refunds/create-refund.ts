/**
 * A merchant's refund of a payment: to an address the merchant gives (sent at once, as a
 * withdrawal from the payment's domain wallet — or, when that wallet lacks the tokens yet,
 * recorded `awaiting_funds` and sent once it can: awaiting-funds.ts), or as a claim the payer
 * completes at claimUrl.
 * Never beyond what the payment received: the amount is checked again under the session's row
 * lock against its other active refunds, so concurrent refunds cannot together exceed it.
 *
 * An Idempotency-Key's replay must answer the first refund even once that refund used up the
 * payment: only the body's shape is checked before the key is looked up; everything that depends
 * on the payment's state now is checked inside the key's transaction (`record`).
 */

import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { getConfig } from "../config";
import type { Db } from "../db";
import { type Refund, refunds, type Withdrawal } from "../db/schema";
import type { AppError } from "../errors";
import { runIdempotent } from "../idempotency/idempotency";
import { formatAmount, parseAmount } from "../payments/amount";
import { findSessionInScope, type SessionScope } from "../payments/find-session";
import { amountRefusal, paymentRefusal } from "../payments/reasons";
import { assertWithdrawable } from "../tokens/withdrawal-rules";
import { recordAndBroadcast, recordAndView } from "../withdrawals/send";
import { awaitingFundsReason, isShortOfTokens } from "./awaiting-funds";
import { findRefund } from "./find-refund";
import { refundRefusal } from "./reasons";
import { emitRefundEvents, insertRefund } from "./refund-records";
import { assertPayable, assertWalletCanPay, lockedAmounts, sessionDomain } from "./refund-rules";
import type { RefundEvent } from "./refund-state";
import { type RefundView, toRefundView } from "./refund-view";
import { NO_DEFAULT_REFUND, REFUND_REFUSALS, type RefundAmounts } from "./refundable";
import type { CreateRefundInput } from "./schemas";

export interface RefundCreator {
  scope: SessionScope;
  /** The API key's Idempotency-Key, or the dashboard form's request id, or none. */
  idempotency: { apiKeyId: number; key: string; body: unknown } | { clientRequestId: string } | null;
}

export async function createRefund(
  db: Db,
  creator: RefundCreator,
  sessionId: string,
  input: CreateRefundInput,
): Promise<{ view: RefundView; replayed: boolean }> {
  const { session, token } = await findSessionInScope(db, creator.scope, sessionId);
  const idempotency = creator.idempotency;
  const clientRequestId = idempotency && "clientRequestId" in idempotency ? idempotency.clientRequestId : null;
  if (clientRequestId) {
    const earlier = await refundOfRequest(db, creator.scope, session.userId, clientRequestId);
    if (earlier) return { view: earlier, replayed: true };
  }
  // The body's shape only (see above).
  if (input.toAddress) await assertPayable(db, input.toAddress, "toAddress");
  const requested = input.amount === undefined ? undefined : parseAmount(input.amount, token.decimals);
  if (typeof requested === "string") throw amountRefusal("amount", requested, token.decimals);
  if (requested === 0n) throw paymentRefusal("VALIDATION_ERROR", "amount-zero", "amount must be greater than 0");

  const apiKeyId = "apiKeyId" in creator.scope ? creator.scope.apiKeyId : null;
  const refundId = randomUUID();

  /** One try: in `tx` (the idempotency record's transaction) or on its own. */
  const record = async (tx: Db, afterTopUp: boolean): Promise<{ withdrawal?: Withdrawal }> => {
    // A claim refund is checked now too: a claim URL that can only fail is never handed out.
    const tokenRow = await assertWalletCanPay(tx, session);
    // Decided before any lock (the withdrawal's simulation needs it); checked again under the lock.
    const estimate = await lockedAmounts(tx, session.id, { lock: false });
    const units = requested ?? defaultOrRefuse(amountsOrRefuse(estimate).byDefault);
    assertWithin(units, amountsOrRefuse(estimate).refundable, token.decimals);
    await assertWithdrawable(tx, tokenRow, units);

    let created: { refund: Refund; events: RefundEvent[]; now: Date } | undefined;
    const recordRefund = async (inner: Db, awaitingFunds?: string): Promise<void> => {
      const now = new Date();
      const locked = amountsOrRefuse(await lockedAmounts(inner, session.id, { lock: true }));
      // Without an amount, the refund is what is left *now*: a concurrent refund may have taken the overpaid part.
      if (requested === undefined && locked.byDefault !== units) {
        throw defaultMoved(units, defaultOrRefuse(locked.byDefault), token.decimals);
      }
      assertWithin(units, locked.refundable, token.decimals);
      const values = { id: refundId, sessionId: session.id, userId: session.userId, apiKeyId, clientRequestId, amount: units };
      const claimExpiresAt = new Date(now.getTime() + getConfig().refundClaimTtlSeconds * 1000);
      const row = { ...values, toAddress: input.toAddress ?? null, claimExpiresAt };
      created = { ...(await insertRefund(inner, row, now, { awaitingFunds })), now };
    };
    const announce = async (inner: Db): Promise<void> => {
      if (created) await emitRefundEvents(inner, created.refund, created.events, created.now);
    };

    if (!input.toAddress) {
      await tx.transaction(async (inner) => {
        await recordRefund(inner);
        await announce(inner);
      });
      return {};
    }
    // The refund row is written inside the withdrawal's recording transaction (both or neither),
    // and refund.created once the withdrawal row exists: it carries withdrawalId and txHash.
    return recordAndView(
      tx,
      { userId: session.userId, apiKeyId, refund: { id: refundId, claim: recordRefund, recorded: announce } },
      {
        domainId: sessionDomain(session),
        tokenId: session.tokenId,
        toAddress: input.toAddress,
        amount: formatAmount(units, token.decimals),
      },
      afterTopUp,
    ).catch(async (error: unknown): Promise<{ withdrawal?: Withdrawal }> => {
      // The wallet lacks the tokens (nothing was recorded): the refund waits for them, sent by the job.
      if (!isShortOfTokens(error)) throw error;
      const reason = await awaitingFundsReason(tx, session.id, error, token);
      await tx.transaction(async (inner) => {
        await recordRefund(inner, reason);
        await announce(inner);
      });
      return {};
    });
  };

  let replayed = false;
  let resultId = refundId;
  try {
    await recordAndBroadcast(db, async (afterTopUp) => {
      if (!(idempotency && "apiKeyId" in idempotency)) return record(db, afterTopUp);
      let withdrawal: Withdrawal | undefined;
      const result = await runIdempotent(
        db,
        { apiKeyId: idempotency.apiKeyId, scope: "payment.refund", key: idempotency.key, body: idempotency.body },
        async (tx) => {
          withdrawal = (await record(tx, afterTopUp)).withdrawal;
          return { status: 201, body: { refundId } };
        },
      );
      replayed = result.replayed;
      resultId = result.body.refundId;
      return { withdrawal: result.replayed ? undefined : withdrawal };
    });
  } catch (error) {
    if (clientRequestId) {
      // The same form twice at once: the other request recorded it.
      const other = await refundOfRequest(db, creator.scope, session.userId, clientRequestId);
      if (other) return { view: other, replayed: true };
    }
    throw error;
  }
  return { view: toRefundView(await findRefund(db, creator.scope, resultId)), replayed };
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

function assertWithin(units: bigint, left: bigint, decimals: number): void {
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

/** The dashboard form's refund, if that form was already submitted. */
export async function refundOfRequest(db: Db, scope: SessionScope, userId: number, clientRequestId: string): Promise<RefundView | null> {
  const [row] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.userId, userId), eq(refunds.clientRequestId, clientRequestId)));
  return row ? toRefundView(await findRefund(db, scope, row.id)) : null;
}
