import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { RpcErrorKind } from "../chain/rpc-errors";
import type { Db } from "../db";
import { type Forward, forwards, IN_FLIGHT_FORWARD_STATUSES } from "../db/schema";
import { log } from "../log";
import { lockDepositAddresses, planForwards } from "./forward-plan";
import { backoffSeconds, decideFailure } from "./forward-schedule";

/**
 * The forward row's state changes, shared by the forwarder's steps. Held means "needs the
 * operator": nothing of it is in flight, it blocks no other forward, and it is only retried by
 * `npm run admin -- forwards retry`.
 */
export type StepOutcome = "next" | "waiting" | "gas-tank-low" | "held" | "completed";

export { backoffSeconds, MAX_FORWARD_ATTEMPTS } from "./forward-schedule";
/** A sweep that reverts on chain is retried once with a fresh estimate, then held. */
export const MAX_SWEEP_REVERTS = 2;

export function after(seconds: number): Date {
  return new Date(Date.now() + seconds * 1000);
}

export async function hold(db: Db, forward: Forward, reason: string): Promise<StepOutcome> {
  log.warn(
    { forwardId: forward.id, network: forward.network, address: forward.fromAddress, reason },
    "forward held; funds stay at the deposit address until an operator retries it",
  );
  await db
    .update(forwards)
    .set({ status: "held", heldReason: reason.slice(0, 500), heldAt: new Date(), lastError: reason.slice(0, 500), updatedAt: new Date() })
    .where(and(eq(forwards.id, forward.id), inArray(forwards.status, ["pending", "gas_sent", "sweep_sent"])));
  return "held";
}

/** Back to planning: a fresh balance, estimate and gas price on the next attempt. */
export async function replan(
  db: Db,
  forward: Forward,
  reason: string,
  changes: { attempts?: number; sweepReverts?: number } = {},
): Promise<StepOutcome> {
  const attempts = changes.attempts ?? forward.attempts;
  await db
    .update(forwards)
    .set({
      status: "pending",
      gasPrice: null,
      sweepGasLimit: null,
      gasAmount: null,
      gasNonce: null,
      gasTxHash: null,
      gasTxId: null,
      sweepNonce: null,
      sweepTxHash: null,
      sweepTxId: null,
      attempts,
      sweepReverts: changes.sweepReverts ?? forward.sweepReverts,
      lastError: reason.slice(0, 500),
      nextAttemptAt: after(attempts > 0 ? backoffSeconds(attempts) : 1),
      updatedAt: new Date(),
    })
    .where(and(eq(forwards.id, forward.id), eq(forwards.status, forward.status)));
  return "next";
}

/**
 * Marks the sweep done and, in the same transaction, plans what arrived at the address while it
 * was in flight — so no deposit is left waiting for a trigger that already passed.
 */
export async function complete(db: Db, forward: Forward, fields: { gasUsed: bigint | null; amount?: bigint }): Promise<StepOutcome> {
  await db.transaction(async (tx) => {
    await lockDepositAddresses(tx, forward.network, [forward.fromAddress]);
    const done = await tx
      .update(forwards)
      .set({
        status: "completed",
        gasUsed: fields.gasUsed,
        completedAt: new Date(),
        lastError: null,
        updatedAt: new Date(),
        ...(fields.amount !== undefined ? { amount: fields.amount } : {}),
      })
      .where(and(eq(forwards.id, forward.id), ne(forwards.status, "completed")))
      .returning({ id: forwards.id });
    if (done.length > 0) await planForwards(tx, forward.network, [forward.fromAddress]);
  });
  return "completed";
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

/**
 * A step threw: records why and when to try again, as decideFailure says. An RPC that did not
 * answer is not counted; a failure that would repeat is, and a pending forward is held after
 * MAX_FORWARD_ATTEMPTS of them.
 */
export async function recordFailure(db: Db, forwardId: number, failure: { reason: string; kind: RpcErrorKind }): Promise<"retry" | "held"> {
  const [current] = await db.select().from(forwards).where(eq(forwards.id, forwardId));
  if (!current) return "retry";
  const decision = decideFailure(current, failure.kind);
  if (decision.hold) {
    await db.update(forwards).set({ attempts: decision.attempts }).where(eq(forwards.id, forwardId));
    await hold(
      db,
      { ...current, attempts: decision.attempts },
      `gave up after ${decision.attempts} failed attempts; last: ${failure.reason}`,
    );
    return "held";
  }
  const counted = decision.attempts > current.attempts;
  await db
    .update(forwards)
    .set({
      ...(counted ? { attempts: sql`${forwards.attempts} + 1` } : {}),
      lastError: failure.reason.slice(0, 500),
      nextAttemptAt: after(decision.retryInSeconds),
      updatedAt: new Date(),
    })
    .where(eq(forwards.id, forwardId));
  return "retry";
}
