/**
 * The engine's `depositBook` port (lib/engine/forwarding/deposit-book.ts): the deposits and their
 * sessions as forwarding reads and marks them. The statements are the planner's own
 * (lib/engine/forwarding/forward-plan.ts), run in the caller's transaction; sessions are found by
 * deposit topic, whose unique index finds them (there is no index on the address itself).
 */
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { deposits, paymentSessions, tokenCatalogue } from "../../db/schema";
import { depositTopicsOf } from "../../engine/chain/deposit-addresses";
import { NATIVE_SPELLINGS } from "../../engine/chain/native";
import type { DepositBook } from "../../engine/forwarding/deposit-book";

const dueAt = (now: Date) => or(isNull(deposits.planAfter), lte(deposits.planAfter, now));

export const depositBookOfPayments: DepositBook = {
  async flaggedAddresses(db, network, now, limit) {
    const flagged = await db
      .selectDistinct({ address: deposits.toAddress })
      .from(deposits)
      .where(and(eq(deposits.network, network), eq(deposits.needsPlanning, true), dueAt(now)))
      .limit(limit);
    return flagged.map((f) => f.address);
  },

  async clearFlags(tx, network, addresses, now) {
    await tx
      .update(deposits)
      .set({ needsPlanning: false })
      .where(and(eq(deposits.network, network), inArray(deposits.toAddress, addresses), eq(deposits.needsPlanning, true), dueAt(now)));
  },

  async lockAddresses(tx, network, addresses) {
    await tx
      .select({ id: paymentSessions.id })
      .from(paymentSessions)
      .where(and(eq(paymentSessions.network, network), inArray(paymentSessions.depositTopic, depositTopicsOf(addresses))))
      .orderBy(paymentSessions.id)
      .for("update");
  },

  unplanned(tx, network, addresses) {
    return tx
      .select({
        deposit: deposits,
        sessionStatus: paymentSessions.status,
        completingTx: paymentSessions.txHash,
        forwardTo: paymentSessions.forwardTo,
        userId: paymentSessions.userId,
      })
      .from(deposits)
      .innerJoin(paymentSessions, eq(paymentSessions.id, deposits.sessionId))
      .where(and(eq(deposits.network, network), inArray(deposits.toAddress, addresses), isNull(deposits.forwardId)))
      .orderBy(deposits.id);
  },

  recordedTotals(tx, network, addresses) {
    return tx
      .select({ address: deposits.toAddress, token: deposits.tokenContract, total: sql<string>`sum(${deposits.amount})` })
      .from(deposits)
      .where(and(eq(deposits.network, network), inArray(deposits.toAddress, addresses)))
      .groupBy(deposits.toAddress, deposits.tokenContract);
  },

  minimums(tx, network, tokens) {
    return tx
      .select({ token: tokenCatalogue.contractAddress, min: tokenCatalogue.minForwardAmount })
      .from(tokenCatalogue)
      .where(and(eq(tokenCatalogue.network, network), inArray(tokenCatalogue.contractAddress, tokens)));
  },

  inTransactions(tx, sessionIds, txHashes) {
    return tx
      .select({ sessionId: deposits.sessionId, txHash: deposits.txHash, blockNumber: deposits.blockNumber, logIndex: deposits.logIndex })
      .from(deposits)
      .where(and(inArray(deposits.sessionId, sessionIds), inArray(deposits.txHash, txHashes)));
  },

  async attach(tx, depositIds, forwardId) {
    await tx.update(deposits).set({ forwardId }).where(inArray(deposits.id, depositIds));
  },

  async defer(tx, depositIds, until) {
    await tx.update(deposits).set({ needsPlanning: true, planAfter: until }).where(inArray(deposits.id, depositIds));
  },

  depositKeys(db, network, addresses) {
    return db
      .select({ depositIndex: paymentSessions.depositIndex, depositAddress: paymentSessions.depositAddress })
      .from(paymentSessions)
      .where(and(eq(paymentSessions.network, network), inArray(paymentSessions.depositTopic, depositTopicsOf(addresses))));
  },

  async nativeReceived(db, network, address) {
    const [received] = await db
      .select({ total: sql<string>`coalesce(sum(${deposits.amount}), 0)::text` })
      .from(deposits)
      .where(and(eq(deposits.network, network), eq(deposits.toAddress, address), inArray(deposits.tokenContract, [...NATIVE_SPELLINGS])));
    return received?.total ?? "0";
  },
};
