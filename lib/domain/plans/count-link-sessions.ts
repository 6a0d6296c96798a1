/**
 * A payment link's session counts against its merchant's monthly quota only once it is really paid
 * (docs/design.md §21): what it received in its own token reaches the token's minimum payment
 * (lib/domain/tokens/minimum-payment.ts), or it completed. A public page must not let strangers use up the
 * shop's quota with sessions nobody pays — nor with 1 wei sent to each deposit address (~$3 of gas
 * for 1,000 sessions). The same mark (quota_counted_at) takes the session out of the link's "open
 * unpaid" set (lib/domain/payment-links/open-sessions.ts), so dust does not escape the cap either. Called
 * in the transaction that records the session's transfers, under the sessions' row locks. A paid
 * session counts even past the quota (money arrived; refusing to count it protects nothing): the
 * next payment/create and link Pay then find the quota used up.
 */

import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { type PaymentSession, paymentSessions, sessionUsage, tokenCatalogue } from "../../db/schema";
import { minimumPayment } from "../tokens/minimum-payment";
import { usagePeriod } from "./current-plan";

export interface LinkSessionReceipt {
  session: Pick<PaymentSession, "id" | "network" | "amount" | "status" | "paymentLinkId" | "quotaCountedAt">;
  /** Everything the session's address received in the session's token (late transfers included). */
  received: bigint;
  /** The session token's contract. */
  contract: string;
}

export async function countPaidLinkSessions(tx: Db, receipts: LinkSessionReceipt[], now = new Date()): Promise<void> {
  const candidates = receipts.filter((r) => r.session.paymentLinkId !== null && r.session.quotaCountedAt === null);
  if (candidates.length === 0) return;
  const paid: string[] = [];
  for (const r of candidates) {
    if (r.session.status === "completed" || r.received >= (await paidThreshold(tx, r))) paid.push(r.session.id);
  }
  if (paid.length === 0) return;
  // Conditional: a session is counted once, however many transfers reach it and whoever records them.
  const counted = await tx
    .update(paymentSessions)
    .set({ quotaCountedAt: now })
    .where(and(inArray(paymentSessions.id, paid), isNull(paymentSessions.quotaCountedAt)))
    .returning({ userId: paymentSessions.userId });
  const perUser = new Map<number, number>();
  for (const { userId } of counted) perUser.set(userId, (perUser.get(userId) ?? 0) + 1);
  for (const [userId, sessions] of [...perUser].sort(([a], [b]) => a - b)) {
    await tx
      .insert(sessionUsage)
      .values({ userId, period: usagePeriod(now), sessions })
      .onConflictDoUpdate({
        target: [sessionUsage.userId, sessionUsage.period],
        set: { sessions: sql`${sessionUsage.sessions} + ${sessions}` },
      });
  }
}

/**
 * The token's minimum payment as the catalogue says now (enabled or not: the session exists), at
 * least one base unit and at most the session's price; without a catalogue entry, the price.
 */
async function paidThreshold(tx: Db, { session, contract }: LinkSessionReceipt): Promise<bigint> {
  const [entry] = await tx
    .select({ minPaymentAmount: tokenCatalogue.minPaymentAmount, minForwardAmount: tokenCatalogue.minForwardAmount })
    .from(tokenCatalogue)
    .where(and(eq(tokenCatalogue.network, session.network), sql`lower(${tokenCatalogue.contractAddress}) = ${contract.toLowerCase()}`));
  let threshold = entry ? minimumPayment(entry) : session.amount;
  if (threshold > session.amount) threshold = session.amount;
  if (threshold < 1n) threshold = 1n;
  return threshold;
}
