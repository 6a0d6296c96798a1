import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../db";
import { requireRow } from "../db/rows";
import { deposits, paymentSessions, tokens } from "../db/schema";
import { metrics } from "../metrics/registry";
import { countPaidLinkSessions, type LinkSessionReceipt } from "../packages/count-link-sessions";
import type { ObservedTransfer } from "../scanner/scanner";
import { enqueueSessionEvents, type SessionEvents } from "./session-events";
import { evaluateSession, paymentEvents } from "./session-state";

/**
 * Records confirmed transfers into deposit addresses (idempotently, keyed by the chain's own ids)
 * and re-evaluates the sessions they touched. New deposits are flagged for the forward planner,
 * and so are the unswept ones of a session that has just completed (its completing payment is
 * swept even below the token's minimum). The webhook events of those changes are written in the
 * same transaction. Run it in the scanner's transaction, with the cursor.
 */
export async function recordTransfers(tx: Db, transfers: ObservedTransfer[], now = new Date()): Promise<void> {
  if (transfers.length === 0) return;
  const inserted = await tx
    .insert(deposits)
    .values(transfers)
    .onConflictDoNothing({ target: [deposits.network, deposits.txHash, deposits.logIndex] })
    .returning();
  if (inserted.length === 0) return;

  const sessionIds = [...new Set(inserted.map((d) => d.sessionId))];
  const sessions = await tx
    .select()
    .from(paymentSessions)
    .where(inArray(paymentSessions.id, sessionIds))
    .orderBy(paymentSessions.id)
    .for("update");
  const sessionTokens = await tx
    .select({ id: tokens.id, contract: tokens.contractAddress })
    .from(tokens)
    .where(inArray(tokens.id, [...new Set(sessions.map((s) => s.tokenId))]));
  const contractOf = new Map(sessionTokens.map((t) => [t.id, t.contract.toLowerCase()]));

  const allReceived = await tx.select().from(deposits).where(inArray(deposits.sessionId, sessionIds));
  const changes: SessionEvents[] = [];
  const receipts: LinkSessionReceipt[] = [];
  for (const session of sessions) {
    const received = allReceived.filter((d) => d.sessionId === session.id);
    // Another token sent to the address pays nothing toward this session; it is still forwarded.
    const sessionContract = contractOf.get(session.tokenId);
    const [counted, otherToken] = partition(received, (d) => d.tokenContract.toLowerCase() === sessionContract);
    const result = evaluateSession(session, counted, now);
    const lateIds = new Set(result.lateTransferIds);
    const lateAmount = counted.filter((d) => lateIds.has(d.id)).reduce((sum, d) => sum + d.amount, 0n);
    result.lateTransferIds.push(...otherToken.map((d) => d.id));
    const updated = requireRow(
      await tx
        .update(paymentSessions)
        .set({
          status: result.status,
          receivedAmount: result.receivedAmount,
          overpaid: result.overpaid,
          late: result.lateTransferIds.length > 0,
          lateAmount,
          txHash: result.txHash,
          completedAt: result.completedAt,
          expiredAt: result.status === "expired" ? (session.expiredAt ?? now) : session.expiredAt,
          updatedAt: now,
        })
        .where(eq(paymentSessions.id, session.id))
        .returning(),
      `update of payment session ${session.id}`,
    );
    if (sessionContract)
      receipts.push({ session: updated, received: counted.reduce((sum, d) => sum + d.amount, 0n), contract: sessionContract });
    const fresh = inserted.filter((d) => d.sessionId === session.id);
    const freshLate = fresh.filter((d) => result.lateTransferIds.includes(d.id)).length;
    changes.push({ session: updated, types: paymentEvents(session, updated, { late: freshLate, counted: fresh.length - freshLate }) });
    if (result.status === "completed" && session.status !== "completed") {
      // Counted before the commit: a scan that rolls back and runs again may count it twice (rare, and only a metric).
      const completing = counted.find((d) => d.txHash === result.txHash);
      if (completing)
        metrics().detectionLatency.observe(
          { network: session.network },
          Math.max(0, (now.getTime() - completing.blockTimestamp.getTime()) / 1000),
        );
      await tx
        .update(deposits)
        .set({ needsPlanning: true })
        .where(and(eq(deposits.sessionId, session.id), isNull(deposits.forwardId)));
    }
    if (result.lateTransferIds.length > 0) {
      await tx
        .update(deposits)
        .set({ late: true })
        .where(and(eq(deposits.sessionId, session.id), inArray(deposits.id, result.lateTransferIds)));
    }
  }
  // Still under the sessions' row locks, taken in id order above.
  await countPaidLinkSessions(tx, receipts, now);
  await enqueueSessionEvents(tx, changes, now);
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}
