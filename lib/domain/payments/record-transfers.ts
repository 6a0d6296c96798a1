import { and, eq, inArray, isNull } from "drizzle-orm";
import { metrics } from "../../base/metrics";
import type { Db } from "../../db";
import { deposits, paymentSessions, tokens } from "../../db/schema";
import type { ObservedTransfer } from "../../engine/scanner/scanner";
import { countPaidLinkSessions, type LinkSessionReceipt } from "../plans/count-link-sessions";
import { type AppliedSessionFact, applySessionFact, finishSessionChanges } from "./session-records";

/**
 * Records confirmed transfers into deposit addresses (idempotently, keyed by the chain's own ids)
 * and re-evaluates the sessions they touched. New deposits are flagged for the forward planner,
 * and so are the unswept ones of a session that has just completed (its completing payment is
 * swept even below the token's minimum). The webhook events of those changes are written in the
 * same transaction. Run it in the scanner's transaction, with the cursor. What each session's
 * transfers do to it is decided by session-state.ts and written by session-records.ts.
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
  const changes: AppliedSessionFact[] = [];
  const receipts: LinkSessionReceipt[] = [];
  for (const session of sessions) {
    const received = allReceived.filter((d) => d.sessionId === session.id);
    // Another token sent to the address pays nothing toward this session; it is still forwarded.
    const sessionContract = contractOf.get(session.tokenId);
    const [counted, otherToken] = partition(received, (d) => d.tokenContract.toLowerCase() === sessionContract);
    const fresh = inserted.filter((d) => d.sessionId === session.id);
    const applied = await applySessionFact(
      tx,
      session,
      { kind: "transfers-recorded", counted, otherTokenIds: otherToken.map((d) => d.id), freshIds: fresh.map((d) => d.id) },
      now,
    );
    // Under the row lock taken above, re-evaluating transfers always applies.
    if (!applied.events) throw new Error(`payment session ${session.id} refused its transfers although its row is locked`);
    const updated = applied.session;
    if (sessionContract)
      receipts.push({ session: updated, received: counted.reduce((sum, d) => sum + d.amount, 0n), contract: sessionContract });
    changes.push(applied);
    if (applied.events.types.includes("payment.completed")) {
      // Counted before the commit: a scan that rolls back and runs again may count it twice (rare, and only a metric).
      const completing = counted.find((d) => d.txHash === updated.txHash);
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
  }
  // Still under the sessions' row locks, taken in id order above.
  await countPaidLinkSessions(tx, receipts, now);
  await finishSessionChanges(tx, changes, now);
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}
