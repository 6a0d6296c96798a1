/**
 * The one writer of a payment session's state. The scanner, the expiry and the cancels find a
 * fact; session-state.ts decides what it does to the session; this writes that decision under the
 * session's row lock, as a compare-and-set on the status and amount it was decided from, with the
 * decision's webhook events (and the announcement to open checkout pages) in the same
 * transaction. Only this file writes payment_sessions.status (tests/unit/status-writes.test.ts
 * holds that); a new session starts pending by the column's default (insert-session.ts). Every
 * transaction that applies facts ends with finishSessionChanges: the counters and day totals
 * (session-tallies.ts), then the webhook events, of all its changes at once.
 */
import { and, asc, eq, inArray, lte, type SQL } from "drizzle-orm";
import type { Db } from "../../db";
import { deposits, type PaymentSession, paymentSessions } from "../../db/schema";
import { enqueueSessionEvents, type SessionEvents } from "./session-events";
import { decideSession, type SessionChange, type SessionDecision, type SessionFact } from "./session-state";
import { tallySessionMoves } from "./session-tallies";

export interface AppliedSessionFact {
  decision: SessionDecision;
  /** The row as written, or as it was when the fact did not apply. */
  session: PaymentSession;
  /** The row the fact was decided from. */
  before: PaymentSession;
  written: boolean;
  /** Its webhook events, for the caller to enqueue with others of the same transaction. */
  events: SessionEvents | null;
}

/**
 * Decides what `fact` does to `session` (read under its row lock in `tx`) and writes it. Events
 * are returned, not enqueued: the scanner writes those of every session it touched at once.
 */
export async function applySessionFact(tx: Db, session: PaymentSession, fact: SessionFact, now: Date): Promise<AppliedSessionFact> {
  const decision = decideSession(session, fact, now);
  if (!decision.accepted) return { decision, session, before: session, written: false, events: null };
  const [written] = await tx
    .update(paymentSessions)
    .set({ ...columnsOf(decision.next), updatedAt: now })
    .where(
      and(
        eq(paymentSessions.id, session.id),
        eq(paymentSessions.status, session.status),
        eq(paymentSessions.receivedAmount, session.receivedAmount),
      ),
    )
    .returning();
  if (!written) return { decision, session, before: session, written: false, events: null };
  const late = decision.next.lateDepositIds ?? [];
  if (late.length > 0) {
    await tx
      .update(deposits)
      .set({ late: true })
      .where(and(eq(deposits.sessionId, session.id), inArray(deposits.id, late)));
  }
  return { decision, session: written, before: session, written: true, events: { session: written, types: decision.events } };
}

/**
 * The end of every transaction that applied facts: moves the counters and day totals of all its
 * written changes in one go (rows locked in one order: session-tallies.ts), then writes their
 * webhook events.
 */
export async function finishSessionChanges(tx: Db, applied: AppliedSessionFact[], now: Date): Promise<void> {
  const written = applied.filter((a) => a.written);
  await tallySessionMoves(
    tx,
    written.map((a) => ({ before: a.before, after: a.session })),
  );
  await enqueueSessionEvents(
    tx,
    written.flatMap((a) => (a.events ? [a.events] : [])),
    now,
  );
}

/**
 * The one way a session expires — the job, and every read that finds one due — so each expiry
 * writes its payment.expired event in the same transaction, whoever noticed it first. A transfer
 * mined in time but confirmed later still completes the session afterwards (session-state.ts).
 */
export async function expireSessionsWhere(db: Db, scope: SQL | undefined, now = new Date()): Promise<PaymentSession[]> {
  const expired: PaymentSession[] = [];
  for (;;) {
    const { locked, written } = await expireBatch(db, scope, now);
    expired.push(...written);
    if (locked < EXPIRY_BATCH) return expired;
  }
}

/** Sessions expired per transaction: a backlog (after downtime) never holds thousands of row locks at once. */
const EXPIRY_BATCH = 500;

async function expireBatch(db: Db, scope: SQL | undefined, now: Date): Promise<{ locked: number; written: PaymentSession[] }> {
  return db.transaction(async (tx) => {
    // Locked in id order, as the scanner locks them: a session being paid meanwhile is read as paid, and
    // left alone. NO KEY UPDATE (what a plain UPDATE takes): the scanner's deposit inserts hold KEY SHARE
    // on their sessions through the foreign key, in arrival order, and must not wait on this.
    const due = await tx
      .select()
      .from(paymentSessions)
      .where(and(eq(paymentSessions.status, "pending"), lte(paymentSessions.expiresAt, now), scope))
      .orderBy(asc(paymentSessions.id))
      .limit(EXPIRY_BATCH)
      .for("no key update");
    const applied: AppliedSessionFact[] = [];
    for (const session of due) applied.push(await applySessionFact(tx, session, { kind: "expiry-due" }, now));
    await finishSessionChanges(tx, applied, now);
    return { locked: due.length, written: applied.filter((a) => a.written).map((a) => a.session) };
  });
}

/**
 * Cancels the session if the decider lets `fact` (a cancel) apply to it as it is now, read under
 * its row lock. Returns the row as it is afterwards, and whether the cancel was written.
 */
export async function cancelSession(
  db: Db,
  sessionId: string,
  fact: SessionFact & { kind: "cancelled-by-merchant" | "cancelled-by-payer" },
  now = new Date(),
): Promise<{ session: PaymentSession | null; cancelled: boolean }> {
  return db.transaction(async (tx) => {
    // NO KEY UPDATE, as a plain UPDATE takes: a deposit insert's foreign-key check (KEY SHARE) never waits on it.
    const [session] = await tx.select().from(paymentSessions).where(eq(paymentSessions.id, sessionId)).for("no key update");
    if (!session) return { session: null, cancelled: false };
    const applied = await applySessionFact(tx, session, fact, now);
    await finishSessionChanges(tx, [applied], now);
    return { session: applied.session, cancelled: applied.written };
  });
}

function columnsOf(change: SessionChange): Partial<typeof paymentSessions.$inferInsert> {
  const columns: Partial<typeof paymentSessions.$inferInsert> = { status: change.status };
  if (change.receivedAmount !== undefined) columns.receivedAmount = change.receivedAmount;
  if (change.overpaid !== undefined) columns.overpaid = change.overpaid;
  if (change.late !== undefined) columns.late = change.late;
  if (change.lateAmount !== undefined) columns.lateAmount = change.lateAmount;
  if (change.txHash !== undefined) columns.txHash = change.txHash;
  if (change.completedAt !== undefined) columns.completedAt = change.completedAt;
  if (change.expiredAt !== undefined) columns.expiredAt = change.expiredAt;
  if (change.cancelledAt !== undefined) columns.cancelledAt = change.cancelledAt;
  if (change.cancelledAtBlock !== undefined) columns.cancelledAtBlock = change.cancelledAtBlock;
  if (change.tokenId !== undefined) columns.tokenId = change.tokenId;
  if (change.amount !== undefined) columns.amount = change.amount;
  if (change.rate !== undefined) columns.rate = change.rate;
  if (change.rateSource !== undefined) columns.rateSource = change.rateSource;
  if (change.ratedAt !== undefined) columns.ratedAt = change.ratedAt;
  return columns;
}
