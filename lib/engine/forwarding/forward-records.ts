/**
 * The one writer of a forward's state. A step finds a fact; forward-state.ts decides what it does
 * to the forward; this writes that decision as a compare-and-set on everything the decision was
 * made from (status, attempts, reverts, classic-only), so a decision taken on a row that another
 * worker moved on meanwhile changes nothing. Only this file writes forwards.status
 * (tests/unit/status-writes.test.ts holds that).
 */
import { and, eq, type SQL } from "drizzle-orm";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type Forward, forwards, IN_FLIGHT_FORWARD_STATUSES } from "../../db/schema/engine";
import type { RpcErrorKind } from "../chain/rpc-errors";
import { lockDepositAddresses, planForwards } from "./forward-plan";
import { decideForward, type ForwardChange, type ForwardEvent, type ForwardFact, type ForwardState } from "./forward-state";

export { backoffSeconds, MAX_FORWARD_ATTEMPTS } from "./forward-schedule";
export { MAX_SWEEP_REVERTS } from "./forward-state";

/**
 * What one step did, for the forwarder: go on at once, wait, or stop (held, completed). `paused`:
 * it waits, and the step already recorded until when (a BNB balance too small to pay its own gas).
 */
export type StepOutcome = "next" | "waiting" | "paused" | "gas-tank-low" | "held" | "completed";

/** Row fields a fact brings along beside the state: the plan, its transactions, the batch entry. */
export type ForwardRecord = Partial<
  Pick<
    Forward,
    | "amount"
    | "gasPrice"
    | "sweepGasLimit"
    | "gasAmount"
    | "gasTxId"
    | "gasNonce"
    | "gasTxHash"
    | "sweepTxId"
    | "sweepNonce"
    | "sweepTxHash"
    | "batchId"
    | "batchIndex"
    | "lockedUntil"
  >
>;

export interface AppliedFact {
  next: ForwardChange;
  events: ForwardEvent[];
}

export interface ApplyOptions {
  record?: ForwardRecord;
  /** A further condition the write needs (e.g. the amount the plan was made for). */
  guard?: SQL;
  now?: Date;
}

/**
 * Decides what `fact` does to `forward` (as read by the caller) and writes it. Returns what was
 * written, or null when the fact did not apply or the row had moved on.
 */
export async function applyForwardFact(
  db: Db,
  forward: Forward,
  fact: ForwardFact,
  options: ApplyOptions = {},
): Promise<AppliedFact | null> {
  const now = options.now ?? new Date();
  const decision = decideForward(stateOf(forward), fact, now);
  if (!decision.accepted) return null;
  const written = await db
    .update(forwards)
    .set({ ...columnsOf(decision.next, now), ...options.record })
    .where(and(decidedFrom(forward), options.guard))
    .returning({ id: forwards.id });
  if (written.length === 0) return null;
  for (const event of decision.events) {
    if (event.type === "held") {
      log.warn(
        { forwardId: forward.id, network: forward.network, address: forward.fromAddress, reason: event.reason },
        "forward held; funds stay at the deposit address until an operator retries it",
      );
    }
  }
  return { next: decision.next, events: decision.events };
}

/** Like applyForwardFact, for a row the caller holds locked: a fact that does not apply is a bug. */
export async function applyToLocked(db: Db, forward: Forward, fact: ForwardFact, options: ApplyOptions = {}): Promise<AppliedFact> {
  const applied = await applyForwardFact(db, forward, fact, options);
  if (!applied) throw new Error(`forward ${forward.id} (${forward.status}) refused ${fact.kind} although its row is locked`);
  return applied;
}

export async function hold(db: Db, forward: Forward, reason: string): Promise<StepOutcome> {
  await applyForwardFact(db, forward, { kind: "needs-operator", reason });
  return "held";
}

/** The fact sends the forward back to planning (or on): the forwarder goes on at once with the row as it is now. */
export async function moveOn(db: Db, forward: Forward, fact: ForwardFact): Promise<StepOutcome> {
  const applied = await applyForwardFact(db, forward, fact);
  return applied?.next.status === "held" ? "held" : "next";
}

/**
 * Marks the sweep done and, in the same transaction, plans what arrived at the address while it
 * was in flight, so no deposit is left waiting for a trigger that already passed.
 */
export async function complete(db: Db, forward: Forward, gasUsed: bigint | null): Promise<StepOutcome> {
  await db.transaction(async (tx) => {
    await lockDepositAddresses(tx, forward.network, [forward.fromAddress]);
    const applied = await applyForwardFact(tx, forward, { kind: "swept", gasUsed });
    if (applied?.events.some((e) => e.type === "completed")) await planForwards(tx, forward.network, [forward.fromAddress]);
  });
  return "completed";
}

/** Waits `seconds` before its next step (a receipt, company for a batch, the gas tank), noting why if given. */
export async function wait(db: Db, forwardId: number, seconds: number, reason?: string): Promise<void> {
  const [current] = await db.select().from(forwards).where(eq(forwards.id, forwardId));
  if (current) await applyForwardFact(db, current, { kind: "wait", seconds, reason });
}

/**
 * A step threw: records why and when to try again, as the decider says. An RPC that did not
 * answer is not counted; a failure that would repeat is, and a pending forward is held after
 * MAX_FORWARD_ATTEMPTS of them.
 */
export async function recordFailure(db: Db, forwardId: number, failure: { reason: string; kind: RpcErrorKind }): Promise<"retry" | "held"> {
  const [current] = await db.select().from(forwards).where(eq(forwards.id, forwardId));
  if (!current) return "retry";
  const applied = await applyForwardFact(db, current, { kind: "step-failed", reason: failure.reason, errorKind: failure.kind });
  return applied?.next.status === "held" ? "held" : "retry";
}

/**
 * Locks every forward row of the address (and so serialises planners of its nonce), then says
 * whether another forward of it has a transaction in flight. Run inside the transaction that
 * moves `forward` to gas_sent.
 */
export async function addressHasOtherInFlight(tx: Db, forward: Forward): Promise<boolean> {
  const rows = await tx
    .select({ id: forwards.id, status: forwards.status })
    .from(forwards)
    .where(and(eq(forwards.network, forward.network), eq(forwards.fromAddress, forward.fromAddress)))
    .orderBy(forwards.id)
    .for("update");
  return rows.some((r) => r.id !== forward.id && (IN_FLIGHT_FORWARD_STATUSES as readonly string[]).includes(r.status));
}

function stateOf(forward: Forward): ForwardState {
  return { status: forward.status, attempts: forward.attempts, sweepReverts: forward.sweepReverts, classicOnly: forward.classicOnly };
}

/** The compare-and-set: the row still is what the decision was made from. */
function decidedFrom(forward: Forward): SQL | undefined {
  return and(
    eq(forwards.id, forward.id),
    eq(forwards.status, forward.status),
    eq(forwards.attempts, forward.attempts),
    eq(forwards.sweepReverts, forward.sweepReverts),
    eq(forwards.classicOnly, forward.classicOnly),
  );
}

function columnsOf(change: ForwardChange, now: Date): Partial<typeof forwards.$inferInsert> {
  const columns: Partial<typeof forwards.$inferInsert> = {
    status: change.status,
    attempts: change.attempts,
    sweepReverts: change.sweepReverts,
    classicOnly: change.classicOnly,
    updatedAt: now,
  };
  if (change.nextAttemptAt !== undefined) columns.nextAttemptAt = change.nextAttemptAt;
  if (change.lastError !== undefined) columns.lastError = change.lastError;
  if (change.heldReason !== undefined) columns.heldReason = change.heldReason;
  if (change.heldAt !== undefined) columns.heldAt = change.heldAt;
  if (change.completedAt !== undefined) columns.completedAt = change.completedAt;
  if (change.gasUsed !== undefined) columns.gasUsed = change.gasUsed;
  if (change.forgetPlan) {
    Object.assign(columns, {
      gasPrice: null,
      sweepGasLimit: null,
      gasAmount: null,
      gasNonce: null,
      gasTxHash: null,
      gasTxId: null,
      sweepNonce: null,
      sweepTxHash: null,
      sweepTxId: null,
    });
  }
  if (change.forgetBatch) Object.assign(columns, { batchId: null, batchIndex: null, sweepTxHash: null });
  return columns;
}
