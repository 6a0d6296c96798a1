/**
 * The step every job driver calls: claims a forward (a lease, so one worker at a time), then takes
 * it as far as it can go now, one state at a time, as forward-state.ts decides:
 *   pending ──(gas tank tops the address up, or it already holds enough BNB)──▶ gas_sent
 *   gas_sent ──(deposit key signs the token transfer)──▶ sweep_sent ──(receipt)──▶ completed
 *   any step that cannot succeed without the operator ──▶ held
 * or, where the network batches (EIP-7702, SWEEP_MODE=batched, the default), many at once:
 *   pending ──(one gas-tank transaction sweeps a batch; batched/sweep-batch.ts)──▶ batched ──▶ completed
 * Every transaction is signed and stored (with its nonce) before it is broadcast, and a stored
 * transaction is only ever re-broadcast, never re-signed: a crash at any point resumes from the
 * row, and no step can pay twice. A forward takes a step only when due by its nextAttemptAt,
 * whichever driver asks (forward-schedule.ts); an address is serialised only while one of its
 * transactions is in flight; failures back off exponentially (capped at 10 min) and a forward
 * whose failures keep repeating is held — it never blocks another one. An RPC that does not answer
 * only delays it.
 */
import { and, asc, eq, inArray, isNull, lt, lte, or } from "drizzle-orm";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { forwards, OPEN_FORWARD_STATUSES } from "../../db/schema/engine";
import { classifyRpcError, errorText, isRetryable } from "../chain/rpc-errors";
import { batchSweepSupport } from "./batched/batch-support";
import { confirmSweepBatch, formSweepBatch } from "./batched/sweep-batch";
import { GAS_TANK_LOW_PAUSE_SECONDS, prepareSweep } from "./classic/forward-gas";
import { confirmSweep, signSweep } from "./classic/forward-sweep";
import { recordFailure, type StepOutcome, wait } from "./forward-records";
import { isForwardDue } from "./forward-schedule";

export type ForwardOutcome = "completed" | "waiting" | "not-due" | "busy" | "gas-tank-low" | "held" | "retry";

/** What one call did, and when the forward is due next (null once it is completed or held, or unknown: busy). */
export interface ForwardAdvance {
  outcome: ForwardOutcome;
  dueAt: Date | null;
}

const LEASE_MS = 60_000;
const ACTIVE = OPEN_FORWARD_STATUSES;

export async function advanceForward(db: Db, forwardId: number): Promise<ForwardAdvance> {
  if (!(await claim(db, forwardId))) return { outcome: "busy", dueAt: null };
  let outcome: ForwardOutcome;
  let dueAt: Date | null = null;
  try {
    outcome = await advanceClaimed(db, forwardId);
  } catch (error) {
    const reason = errorText(error).slice(0, 300);
    const kind = classifyRpcError(error);
    log.warn(
      { forwardId, err: reason, kind },
      isRetryable(kind) ? "forward step met an RPC failure; retrying soon (not counted)" : "forward step failed; backing off",
    );
    outcome = await recordFailure(db, forwardId, { reason, kind });
  } finally {
    const [row] = await db
      .update(forwards)
      .set({ lockedUntil: null })
      .where(eq(forwards.id, forwardId))
      .returning({ status: forwards.status, nextAttemptAt: forwards.nextAttemptAt });
    if (row && (ACTIVE as readonly string[]).includes(row.status)) dueAt = row.nextAttemptAt;
  }
  return { outcome, dueAt };
}

async function advanceClaimed(db: Db, forwardId: number): Promise<ForwardOutcome> {
  for (let step = 0; step < 5; step++) {
    const [forward] = await db.select().from(forwards).where(eq(forwards.id, forwardId));
    if (!forward || forward.status === "completed") return "completed";
    if (forward.status === "held") return "held";
    // Whoever asks (a sleeping Inngest run, a duplicate event, the embedded runner's pick), the
    // recorded schedule decides: a failing forward is not retried before its backoff is over.
    if (step === 0 && !isForwardDue(forward, new Date())) return "not-due";
    const outcome = await advance(db, forward);
    if (outcome === "next") continue;
    if (outcome === "paused") return "waiting";
    if (outcome === "waiting" || outcome === "gas-tank-low")
      await wait(db, forwardId, outcome === "gas-tank-low" ? GAS_TANK_LOW_PAUSE_SECONDS : 1);
    return outcome;
  }
  return "waiting";
}

async function advance(db: Db, forward: typeof forwards.$inferSelect): Promise<StepOutcome> {
  switch (forward.status) {
    case "pending": {
      if (forward.classicOnly) return prepareSweep(db, forward);
      const support = await batchSweepSupport(db, forward.network);
      if (support.state === "ready") return formSweepBatch(db, forward, support.contracts);
      if (support.state === "wait") return support.tankLow ? "gas-tank-low" : "waiting";
      return prepareSweep(db, forward);
    }
    case "batched":
      return confirmSweepBatch(db, forward);
    case "gas_sent":
      return signSweep(db, forward);
    default:
      return confirmSweep(db, forward);
  }
}

/**
 * Forwards that can make progress now, longest-waiting first, at most one per deposit address.
 * `nextAttemptAt <= now` is isForwardDue asked of the database (and its index).
 */
export async function dueForwards(db: Db, limit = 50, now = new Date()): Promise<{ forwardId: number; fromAddress: string }[]> {
  const rows = await db
    .select({ id: forwards.id, from: forwards.fromAddress, network: forwards.network })
    .from(forwards)
    .where(
      and(
        inArray(forwards.status, [...ACTIVE]),
        lte(forwards.nextAttemptAt, now),
        or(isNull(forwards.lockedUntil), lt(forwards.lockedUntil, now)),
      ),
    )
    .orderBy(asc(forwards.nextAttemptAt), asc(forwards.id))
    .limit(limit * 4);
  const seen = new Set<string>();
  const due: { forwardId: number; fromAddress: string }[] = [];
  for (const row of rows) {
    const key = `${row.network}:${row.from}`;
    if (seen.has(key)) continue;
    seen.add(key);
    due.push({ forwardId: row.id, fromAddress: row.from });
    if (due.length >= limit) break;
  }
  return due;
}

async function claim(db: Db, forwardId: number): Promise<boolean> {
  const now = new Date();
  const claimed = await db
    .update(forwards)
    .set({ lockedUntil: new Date(now.getTime() + LEASE_MS) })
    .where(and(eq(forwards.id, forwardId), or(isNull(forwards.lockedUntil), lt(forwards.lockedUntil, now))))
    .returning({ id: forwards.id });
  return claimed.length > 0;
}
