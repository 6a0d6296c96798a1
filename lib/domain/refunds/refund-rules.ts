/** The checks every refund passes: where it may go, how much is left, which wallet pays. */

import { and, eq, inArray, isNull, sql, sum } from "drizzle-orm";
import { zeroAddress } from "viem";
import { commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { ACTIVE_REFUND_STATUSES, domains, type PaymentSession, paymentSessions, refunds, type Token } from "../../db/schema";
import { networkConfig } from "../../engine/chain/networks";
import { assertNotServiceAddress } from "../merchant-domains/gateway-addresses";
import { findOwnToken } from "../tokens/find-own-token";
import { refundRefusal } from "./reasons";
import { expireDueClaims } from "./refund-records";
import { type RefundAmounts, refundAmounts } from "./refundable";

/** Not the zero address (tokens sent there are burnt) and not one of the gateway's own addresses. */
export async function assertPayable(db: Db, address: string, field: string): Promise<void> {
  if (address.toLowerCase() === zeroAddress)
    throw refundRefusal("VALIDATION_ERROR", "refund-address-zero", `${field} must not be the zero address`);
  await assertNotServiceAddress(db, address, field);
}

/**
 * What the payment can still refund, from the session and its active refunds. With `lock`, the
 * session's row is locked first (in the caller's transaction): concurrent refunds and claims of
 * one payment take turns, and each sees the others' amounts. Under the lock the claims past their
 * deadline are first moved to cancelled, by the database's clock; that write waits for a claim
 * being sent right now and then finds it `sending`. Then every refund still waiting, sending or
 * completed counts, with no time filter: a claim is free again only once it is cancelled.
 * Without `lock` (an estimate, a page), a claim past its deadline is left out by the same clock.
 */
export async function lockedAmounts(db: Db, sessionId: string, options: { lock: boolean }): Promise<RefundAmounts> {
  const query = db
    .select({
      status: paymentSessions.status,
      amount: paymentSessions.amount,
      receivedAmount: paymentSessions.receivedAmount,
      lateAmount: paymentSessions.lateAmount,
    })
    .from(paymentSessions)
    .where(eq(paymentSessions.id, sessionId));
  const [session] = options.lock ? await query.for("no key update") : await query;
  if (!session) throw commonRefusal("NOT_FOUND", "not-found", "payment session not found");
  if (options.lock) await expireDueClaims(db, eq(refunds.sessionId, sessionId));
  const [active] = await db
    .select({ total: sum(refunds.amount) })
    .from(refunds)
    .where(
      and(
        eq(refunds.sessionId, sessionId),
        inArray(refunds.status, [...ACTIVE_REFUND_STATUSES]),
        options.lock ? undefined : sql`not (${refunds.status} = 'awaiting_address' and ${refunds.claimExpiresAt} <= now())`,
      ),
    );
  return refundAmounts({ ...session, refunded: BigInt(active?.total ?? 0) });
}

/** The payment's row lock, taken by every refund and claim of it (after the account's and the wallet's: lib/domain/transfers/money-out-locks.ts). */
export async function lockSession(tx: Db, sessionId: string): Promise<void> {
  await tx.select({ id: paymentSessions.id }).from(paymentSessions).where(eq(paymentSessions.id, sessionId)).for("no key update");
}

/**
 * The payment's wallet can still pay a refund: its domain is not removed, its token is still the
 * merchant's, on a network this server serves. Checked when a refund is created — a claim too,
 * so a merchant never hands out a claim URL that can only fail — and again when it is sent.
 */
export async function assertWalletCanPay(db: Db, session: Pick<PaymentSession, "id" | "domainId" | "userId" | "tokenId">): Promise<Token> {
  const domainId = sessionDomain(session);
  const [domain] = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.id, domainId), eq(domains.userId, session.userId), isNull(domains.deletedAt)));
  if (!domain) {
    throw refundRefusal(
      "VALIDATION_ERROR",
      "payment-domain-removed",
      `this payment's domain (${domainId}) was removed, so its withdrawal wallet can no longer pay a refund`,
    );
  }
  const token = await findOwnToken(db, session.userId, session.tokenId);
  if (!token)
    throw refundRefusal(
      "VALIDATION_ERROR",
      "payment-token-not-yours",
      `this payment's token (${session.tokenId}) is no longer yours, so it cannot be refunded here`,
    );
  if (!networkConfig(token.network)) {
    throw refundRefusal(
      "VALIDATION_ERROR",
      "payment-network-not-served",
      `this payment is on network ${token.network}, which this server no longer serves`,
    );
  }
  return token;
}

/** The payment's domain: its withdrawal wallet pays the refund. */
export function sessionDomain(session: Pick<PaymentSession, "id" | "domainId">): number {
  if (session.domainId === null)
    throw refundRefusal("VALIDATION_ERROR", "payment-has-no-domain", "this payment has no domain, so no wallet can refund it");
  return session.domainId;
}
