/**
 * A forward's state machine as one pure decider: (state, fact, now) → (next state, events). Every
 * write of a forward's status goes through it (forward-records.ts applies what it decides, as a
 * compare-and-set on the status it decided from); the steps only find facts.
 *
 *   classic   pending ──gas-recorded──▶ gas_sent ──sweep-recorded──▶ sweep_sent ──swept──▶ completed
 *   batched   pending ──batched──▶ batched ──swept──▶ completed
 *             batched ──batch-failed──▶ pending (classic only) · batched ──batch-replaced──▶ pending
 *   back      gas_sent ──top-up-failed──▶ pending · sweep_sent ──sweep-lost | sweep-reverted──▶ pending
 *   operator  pending | gas_sent | sweep_sent ──needs-operator──▶ held ──operator-retry──▶ pending
 *
 * Held means "needs the operator": nothing of it is in flight and it blocks no other forward. A
 * failed step never holds a forward with a transaction in flight (it keeps checking the chain), and
 * only failures that repeat count toward a hold (forward-schedule.ts). Completed is final.
 */

import type { ForwardStatus } from "../../db/schema/engine";
import type { RpcErrorKind } from "../chain/rpc-errors";
import { backoffSeconds, decideFailure } from "./forward-schedule";

/** A sweep that reverts on chain is retried once with a fresh estimate, then held. */
export const MAX_SWEEP_REVERTS = 2;
/**
 * The first entry of a batch checks it every second; the others only stand in for it (a worker
 * that died holding its lease), so up to 100 rows of one batch do not take the forward queue's
 * places every second from other merchants' forwards.
 */
export const BATCH_CHECK_SECONDS = 1;
export const BATCH_SIBLING_CHECK_SECONDS = 30;
const TEXT_LIMIT = 500;

/** What the decider needs of a forward row. */
export interface ForwardState {
  status: ForwardStatus;
  attempts: number;
  sweepReverts: number;
  classicOnly: boolean;
}

/** What a step found out. Reasons are for the operator (lastError, heldReason). */
export type ForwardFact =
  /** The gas step is recorded: the tank's top-up is signed (or the address already holds the gas). */
  | { kind: "gas-recorded" }
  /** The deposit key's transfer is signed and recorded. */
  | { kind: "sweep-recorded" }
  /** It joined a batch, as entry `entryIndex`, recorded with the batch. */
  | { kind: "batched"; entryIndex: number }
  /** Its sweep (classic, or its entry of a batch) was mined and moved the tokens. */
  | { kind: "swept"; gasUsed: bigint | null }
  /** The top-up never happened: its nonce went to another transaction, or it reverted. */
  | { kind: "top-up-failed"; reason: string }
  /** The sweep's nonce went to another transaction: the deposit key signed something else. */
  | { kind: "sweep-lost"; reason: string }
  /** A sweep_sent row with no transaction recorded: plan it again. */
  | { kind: "sweep-unrecorded"; reason: string }
  /** The classic sweep was mined but reverted. */
  | { kind: "sweep-reverted"; reason: string }
  /** Its batch entry failed, or the whole batch reverted: the classic path from now on. */
  | { kind: "batch-failed"; reason: string }
  /** Its batch's nonce went to another transaction: nothing moved, it batches again. */
  | { kind: "batch-replaced"; reason: string }
  /** It was left out of a batch being formed (simulation, balance, key): the classic path from now on. */
  | { kind: "left-batch"; reason: string }
  /** It cannot go on without the operator (a token that reverts, a balance short of the ledger, gas over the cap). */
  | { kind: "needs-operator"; reason: string }
  /** A step threw. */
  | { kind: "step-failed"; reason: string; errorKind: RpcErrorKind }
  /** It waits on something outside it (a receipt, company for a batch, the gas tank) for `seconds`. */
  | { kind: "wait"; seconds: number; reason?: string }
  /** The operator retries a held forward (npm run admin -- forwards retry). */
  | { kind: "operator-retry" };

/** The row's new state; fields left undefined stay as they are. */
export interface ForwardChange extends ForwardState {
  nextAttemptAt?: Date;
  lastError?: string | null;
  heldReason?: string | null;
  heldAt?: Date | null;
  completedAt?: Date;
  gasUsed?: bigint | null;
  /** Forget the plan (gas price, limit, both transactions): the next attempt reads and plans afresh. */
  forgetPlan?: true;
  /** Forget the batch it was in. */
  forgetBatch?: true;
}

export type ForwardEvent =
  /** Funds stay at the deposit address until the operator retries it. */
  | { type: "held"; reason: string }
  /** Done: what arrived at the address meanwhile must be planned, in the same transaction. */
  | { type: "completed" };

export type ForwardDecision =
  | { accepted: true; next: ForwardChange; events: ForwardEvent[] }
  /** The fact does not apply to this state (another worker moved it on): nothing changes. */
  | { accepted: false; why: string };

const OPEN: readonly ForwardStatus[] = ["pending", "gas_sent", "sweep_sent", "batched"];
const HOLDABLE: readonly ForwardStatus[] = ["pending", "gas_sent", "sweep_sent"];

export function decideForward(state: ForwardState, fact: ForwardFact, now: Date): ForwardDecision {
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
  const refuse = (): ForwardDecision => ({ accepted: false, why: `${fact.kind} does not apply to a ${state.status} forward` });
  const to = (change: Partial<ForwardChange>, events: ForwardEvent[] = []): ForwardDecision => ({
    accepted: true,
    next: { ...state, ...change },
    events,
  });
  const hold = (reason: string, change: Partial<ForwardChange> = {}): ForwardDecision =>
    to({ ...change, status: "held", heldReason: clip(reason), heldAt: now, lastError: clip(reason) }, [
      { type: "held", reason: clip(reason) },
    ]);
  // Back to planning: a fresh balance, estimate and gas price on the next attempt, after the backoff its count earned.
  const replan = (reason: string, change: Partial<ForwardChange> = {}): ForwardDecision => {
    const attempts = change.attempts ?? state.attempts;
    return to({
      ...change,
      status: "pending",
      attempts,
      forgetPlan: true,
      lastError: clip(reason),
      nextAttemptAt: at(attempts > 0 ? backoffSeconds(attempts) : 1),
    });
  };

  switch (fact.kind) {
    case "gas-recorded":
      return state.status === "pending" ? to({ status: "gas_sent", lastError: null }) : refuse();
    case "sweep-recorded":
      return state.status === "gas_sent" ? to({ status: "sweep_sent" }) : refuse();
    case "batched":
      if (state.status !== "pending" || state.classicOnly) return refuse();
      return to({ status: "batched", lastError: null, nextAttemptAt: at(batchCheckSeconds(fact.entryIndex)) });
    case "swept":
      if (state.status !== "sweep_sent" && state.status !== "batched") return refuse();
      return to({ status: "completed", completedAt: now, gasUsed: fact.gasUsed, lastError: null }, [{ type: "completed" }]);
    case "top-up-failed":
      return state.status === "gas_sent" ? replan(fact.reason, { attempts: state.attempts + 1 }) : refuse();
    case "sweep-lost":
      return state.status === "sweep_sent" ? replan(fact.reason, { attempts: state.attempts + 1 }) : refuse();
    case "sweep-unrecorded":
      return state.status === "sweep_sent" ? replan(fact.reason) : refuse();
    case "sweep-reverted": {
      if (state.status !== "sweep_sent") return refuse();
      const sweepReverts = state.sweepReverts + 1;
      if (sweepReverts >= MAX_SWEEP_REVERTS) {
        return hold(`${fact.reason} (${sweepReverts} times); the token refuses the transfer`, { sweepReverts });
      }
      return replan(`${fact.reason}; retrying with a fresh estimate`, { sweepReverts, attempts: state.attempts + 1 });
    }
    case "batch-failed":
    case "batch-replaced":
      if (state.status !== "batched") return refuse();
      // Not counted as the token's revert: the classic path's own reverts decide whether to hold it.
      return to({
        status: "pending",
        classicOnly: fact.kind === "batch-failed",
        attempts: state.attempts + 1,
        forgetBatch: true,
        lastError: clip(fact.reason),
        nextAttemptAt: at(1),
      });
    case "left-batch":
      return state.status === "pending" ? to({ classicOnly: true, lastError: clip(`left the batch: ${fact.reason}`) }) : refuse();
    case "needs-operator":
      return HOLDABLE.includes(state.status) ? hold(fact.reason) : refuse();
    case "step-failed": {
      if (!OPEN.includes(state.status)) return refuse();
      const decision = decideFailure(state, fact.errorKind);
      if (decision.hold)
        return hold(`gave up after ${decision.attempts} failed attempts; last: ${fact.reason}`, { attempts: decision.attempts });
      return to({ attempts: decision.attempts, lastError: clip(fact.reason), nextAttemptAt: at(decision.retryInSeconds) });
    }
    case "wait":
      if (!OPEN.includes(state.status)) return refuse();
      return to({ nextAttemptAt: at(fact.seconds), ...(fact.reason === undefined ? {} : { lastError: clip(fact.reason) }) });
    case "operator-retry":
      if (state.status !== "held") return refuse();
      return to({ status: "pending", attempts: 0, sweepReverts: 0, heldReason: null, heldAt: null, nextAttemptAt: now });
  }
}

/** How long a batched forward waits before it checks its batch again (see BATCH_SIBLING_CHECK_SECONDS). */
export function batchCheckSeconds(entryIndex: number): number {
  return entryIndex === 0 ? BATCH_CHECK_SECONDS : BATCH_SIBLING_CHECK_SECONDS;
}

function clip(text: string): string {
  return text.slice(0, TEXT_LIMIT);
}
