/**
 * A merchant's refund of a payment: to an address the merchant gives (sent at once, as a
 * withdrawal from the payment's domain wallet), or as a claim the payer completes at claimUrl.
 * Never beyond what the payment received: the amount is checked again under the session's row
 * lock against its other active refunds, so concurrent refunds cannot together exceed it.
 */

import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { getConfig } from "../config";
import type { Db } from "../db";
import { type Refund, refunds, tokens, type Withdrawal } from "../db/schema";
import { AppError } from "../errors";
import { runIdempotent } from "../idempotency/idempotency";
import { amountProblemMessage, formatAmount, parseAmount } from "../payments/amount";
import { findSessionInScope, type SessionScope } from "../payments/find-session";
import { assertWithdrawable } from "../tokens/withdrawal-rules";
import { recordAndBroadcast, recordAndView } from "../withdrawals/send";
import { findRefund } from "./find-refund";
import { emitRefundEvents, insertRefund } from "./refund-records";
import { assertPayable, lockedAmounts, sessionDomain } from "./refund-rules";
import { type RefundView, toRefundView } from "./refund-view";
import { REFUND_REFUSALS } from "./refundable";
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
  if (input.toAddress) await assertPayable(db, input.toAddress, "toAddress");
  const requested = input.amount === undefined ? undefined : parseAmount(input.amount, token.decimals);
  if (typeof requested === "string") throw new AppError("VALIDATION_ERROR", amountProblemMessage("amount", requested, token.decimals));
  if (requested === 0n) throw new AppError("VALIDATION_ERROR", "amount must be greater than 0");
  const [tokenRow] = await db.select().from(tokens).where(eq(tokens.id, session.tokenId));
  if (!tokenRow) throw new Error(`token ${session.tokenId} of session ${session.id} is gone`);

  // Decided before any lock (the withdrawal's simulation needs it); checked again under the lock.
  const amounts = await lockedAmounts(db, session.id, { lock: false });
  if (!amounts.ok) throw new AppError("VALIDATION_ERROR", REFUND_REFUSALS[amounts.reason]);
  const units = requested ?? amounts.byDefault;
  assertWithin(units, amounts.refundable, token.decimals);
  await assertWithdrawable(db, tokenRow, units);

  const apiKeyId = "apiKeyId" in creator.scope ? creator.scope.apiKeyId : null;
  const refundId = randomUUID();
  const recordRefund = async (tx: Db): Promise<Refund> => {
    const now = new Date();
    const locked = await lockedAmounts(tx, session.id, { lock: true });
    if (!locked.ok) throw new AppError("VALIDATION_ERROR", REFUND_REFUSALS[locked.reason]);
    assertWithin(units, locked.refundable, token.decimals);
    const { refund, events } = await insertRefund(
      tx,
      {
        id: refundId,
        sessionId: session.id,
        userId: session.userId,
        apiKeyId,
        clientRequestId,
        amount: units,
        toAddress: input.toAddress ?? null,
        claimExpiresAt: new Date(now.getTime() + getConfig().refundClaimTtlSeconds * 1000),
      },
      now,
    );
    await emitRefundEvents(tx, refund, events, now);
    return refund;
  };

  /** One try: in `tx` (the idempotency record's transaction) or on its own. */
  const record = async (tx: Db, afterTopUp: boolean): Promise<{ withdrawal?: Withdrawal }> => {
    if (!input.toAddress) {
      await tx.transaction(recordRefund);
      return {};
    }
    // The refund row is written inside the withdrawal's recording transaction: both or neither.
    return recordAndView(
      tx,
      { userId: session.userId, apiKeyId, refund: { id: refundId, claim: async (inner) => void (await recordRefund(inner)) } },
      {
        domainId: sessionDomain(session),
        tokenId: session.tokenId,
        toAddress: input.toAddress,
        amount: formatAmount(units, token.decimals),
      },
      afterTopUp,
    );
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

function assertWithin(units: bigint, refundable: bigint, decimals: number): void {
  if (units > refundable) {
    throw new AppError(
      "VALIDATION_ERROR",
      `amount ${formatAmount(units, decimals)} is more than this payment can still refund (${formatAmount(refundable, decimals)})`,
    );
  }
}

async function refundOfRequest(db: Db, scope: SessionScope, userId: number, clientRequestId: string): Promise<RefundView | null> {
  const [row] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.userId, userId), eq(refunds.clientRequestId, clientRequestId)));
  return row ? toRefundView(await findRefund(db, scope, row.id)) : null;
}
