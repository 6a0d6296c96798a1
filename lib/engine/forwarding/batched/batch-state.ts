/**
 * The state machines of batched sweeping as pure deciders: (state, facts, now) → (next state,
 * events). Nothing else writes a batch's status or a network's batching state (the writers are
 * sweep-batch-outcome.ts, tank-transactions.ts and network-batching.ts).
 *
 * A gas-tank transaction of batched sweeping (a batch, or a deployment of the sweep contracts):
 *   sent ──(receipt)──▶ mined | reverted;  sent ──(its nonce went to another transaction)──▶ replaced
 * and what each forward still in a batch learns from that: its entry swept (completed), failed or
 * the batch reverted (the classic path from now on), or the batch replaced (it batches again).
 *
 * Whether a network batches, as the database holds it for every process: batches the node refused
 * for good (their nonce filled) count, and after MAX_REFUSED_BATCHES the network sweeps the classic
 * way until the operator says otherwise (npm run admin -- sweeper retry-batches); checks the node
 * could not answer MAX_FAILED_CHECKS times in a row send forwards the classic way meanwhile; a gas
 * tank that cannot pay a batch pauses formation on that network for TANK_LOW_PAUSE_SECONDS.
 */
import type { SweepBatch } from "../../../db/schema/engine";
import type { ForwardFact } from "../forward-state";

export const MAX_REFUSED_BATCHES = 2;
export const MAX_FAILED_CHECKS = 3;
export const TANK_LOW_PAUSE_SECONDS = 30;

export interface BatchState {
  status: SweepBatch["status"];
  kind: SweepBatch["kind"];
  size: number;
  txHash: string;
}

/** How the ledger settled the batch's nonce (mined and reverted with the receipt's facts). */
export type BatchFact =
  | { kind: "open" }
  /** `swept`: each entry's own Swept flag, by entry index, from the sweeper's events. */
  | { kind: "mined"; gasUsed: bigint; swept: ReadonlyMap<number, boolean> }
  | { kind: "reverted"; gasUsed: bigint }
  /** `refused`: the nonce went to our own filler after the node refused the batch for good. */
  | { kind: "replaced"; refused: boolean };

export type BatchEvent =
  /** A sweep batch the node refused for good: its network counts it. */
  { type: "refused" } | { type: "entries-failed"; count: number } | { type: "reverted" };

export interface BatchDecision {
  /** The batch row's new outcome; null while it is on its way, or once it was recorded already. */
  next: { status: SweepBatch["status"]; gasUsed: bigint | null; minedAt: Date | null } | null;
  /** What each forward still in the batch learns, by its entry index. */
  entries: { index: number; fact: ForwardFact }[];
  events: BatchEvent[];
}

/** `entryIndexes`: the entries whose forwards are still batched (the others learnt it already). */
export function decideBatch(state: BatchState, fact: BatchFact, entryIndexes: readonly number[], now: Date): BatchDecision {
  if (fact.kind === "open") return { next: null, entries: [], events: [] };
  const recordable = state.status === "sent";
  const gasUsed = fact.kind === "replaced" ? null : fact.gasUsed;
  const next = recordable ? { status: fact.kind, gasUsed, minedAt: gasUsed === null ? null : now } : null;
  const isSweep = state.kind === "sweep";
  const all = (entryFact: ForwardFact) => (isSweep ? entryIndexes.map((index) => ({ index, fact: entryFact })) : []);

  if (fact.kind === "mined") {
    // Everyone pays the same share of the batch's gas (at most a wei less each, never more).
    const share = fact.gasUsed / BigInt(Math.max(1, state.size));
    const entries = isSweep
      ? entryIndexes.map((index) => ({
          index,
          fact:
            fact.swept.get(index) === true
              ? ({ kind: "swept", gasUsed: share } as const)
              : ({ kind: "batch-failed", reason: `its entry in batch ${state.txHash} failed; sweeping it the classic way` } as const),
        }))
      : [];
    const failed = entries.filter((e) => e.fact.kind === "batch-failed").length;
    return { next, entries, events: failed > 0 ? [{ type: "entries-failed", count: failed }] : [] };
  }
  if (fact.kind === "reverted") {
    return {
      next,
      entries: all({ kind: "batch-failed", reason: `batch ${state.txHash} reverted; sweeping it the classic way` }),
      events: [{ type: "reverted" }],
    };
  }
  return {
    next,
    entries: all({
      kind: "batch-replaced",
      reason: `batch ${state.txHash} was replaced (its nonce went to another transaction); batching again`,
    }),
    // Counted once: only the write that records the outcome carries the event.
    events: isSweep && fact.refused && recordable ? [{ type: "refused" }] : [],
  };
}

export interface NetworkBatching {
  refusedBatches: number;
  failedChecks: number;
  lastCheckError: string | null;
  tankLowUntil: Date | null;
}

export const FRESH_NETWORK: NetworkBatching = { refusedBatches: 0, failedChecks: 0, lastCheckError: null, tankLowUntil: null };

export type NetworkFact =
  | { kind: "batch-refused" }
  /** The node could not answer whether the network can batch (EIP-7702, the contracts' code, the owner's settings). */
  | { kind: "check-failed"; reason: string }
  | { kind: "check-passed" }
  | { kind: "tank-low" }
  /** The operator looked at the refused batches: batch again. */
  | { kind: "operator-reset" };

export function decideNetworkBatching(state: NetworkBatching, fact: NetworkFact, now: Date): NetworkBatching {
  switch (fact.kind) {
    case "batch-refused":
      return { ...state, refusedBatches: state.refusedBatches + 1 };
    case "check-failed":
      return { ...state, failedChecks: state.failedChecks + 1, lastCheckError: fact.reason.slice(0, 300) };
    case "check-passed":
      return state.failedChecks === 0 && state.lastCheckError === null ? state : { ...state, failedChecks: 0, lastCheckError: null };
    case "tank-low":
      return { ...state, tankLowUntil: new Date(now.getTime() + TANK_LOW_PAUSE_SECONDS * 1000) };
    case "operator-reset":
      return { ...state, refusedBatches: 0, failedChecks: 0, lastCheckError: null, tankLowUntil: null };
  }
}

/** Whether the batches the node refused send the network's forwards the classic way, and why (null: they do not). */
export function classicAfterRefusals(state: NetworkBatching): string | null {
  if (state.refusedBatches < MAX_REFUSED_BATCHES) return null;
  return `the node did not mine ${state.refusedBatches} sweep batches; classic sweeps until an operator runs npm run admin -- sweeper retry-batches`;
}

/**
 * After a check the node could not answer (the record already counts it): wait a little, or after
 * MAX_FAILED_CHECKS in a row sweep the classic way meanwhile; a node that cannot answer these is no
 * reason to hold a forward. The next check that passes clears the count.
 */
export function afterFailedCheck(state: NetworkBatching): { state: "classic" | "wait"; reason: string } {
  const reason = `could not check batched sweeping: ${state.lastCheckError ?? "no answer"}`;
  return { state: state.failedChecks >= MAX_FAILED_CHECKS ? "classic" : "wait", reason };
}

/** Whether forming a batch on the network pauses because its gas tank could not pay one a moment ago. */
export function tankLowPause(state: NetworkBatching, now: Date): boolean {
  return state.tankLowUntil !== null && state.tankLowUntil.getTime() > now.getTime();
}
