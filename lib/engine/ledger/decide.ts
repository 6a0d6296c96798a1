/**
 * A nonce's state machine as one pure decider (docs/design.md §17): (state, fact, now) → decision. The
 * settler and the watchdog only read the chain and bring what it said as a fact; nonce-records.ts
 * writes what this decides, and only it writes chain_transactions.status. Nothing else in the code
 * decides "dropped", "replaced" or "stuck".
 *
 *   pending ──receipt-read (final)──▶ mined | reverted; the nonce's other rows ──▶ replaced by it
 *   pending ──receipt-read (not final)──▶ pending, the receipt's block kept (a reorg forgets it)
 *   pending ──count-read (used, no receipt, for DROP_AFTER_MS)──▶ replaced by none (taken by another)
 *   replaced by none ──receipt-read (final, on a re-read)──▶ mined | reverted (recheck.ts)
 *   pending, once another row of its nonce won ──▶ replaced by the winner
 *   pending ──still-open (at the wallet's next nonce, stuck)──▶ reprice | cancel (a new pending row
 *     at the same nonce, replace.ts) | wait for the operator, within MAX_REPLACEMENTS
 */

/**
 * How long the nonce must stay used, with no receipt of ours, before it counts as taken by a
 * transaction we did not sign. Measured in time, not blocks: at BSC's 0.45 s blocks 64 blocks were
 * 30 s, less than a receipts node behind a load balancer may lag. Even then the rows' receipts are
 * read again for hours (nextReceiptRecheck), so a late receipt still settles them.
 */
export const DROP_AFTER_MS = 5 * 60_000;
/** How long a nonce settled as taken by another keeps having its rows' receipts read again. */
export const RECHECK_RECEIPTS_FOR_MS = 24 * 3600_000;
/** How long a transaction may sit at its wallet's next nonce before it is re-priced. */
export const STUCK_AFTER_MS = 60_000;
/** Re-prices and cancels per nonce: the fee at most doubles this many times, then the stall waits for the operator. */
export const MAX_REPLACEMENTS = 3;

/** What the ledger holds of an open nonce. */
export interface NonceState {
  nonce: number;
  /** The pinned block at which, and the time when, the nonce was first seen used without a receipt. */
  nonceUsedSeenBlock: bigint | null;
  nonceUsedSince: Date | null;
  /** The newest row of the nonce (the one being broadcast). */
  newest: { kind: string; createdAt: Date; refusedForGood: boolean };
  /** Rows of the nonce that replace an earlier one. */
  replacements: number;
  /** Whether the service can pay a replacement from this wallet (deposit addresses hold no spare BNB). */
  replaceable: boolean;
}

/** What the chain said about the nonce. */
export type NonceFact =
  /**
   * A receipt of one of its rows was found; `final` once its block is at the network's confirmation
   * depth (or finalized) and still the chain's block at that height.
   */
  | { kind: "receipt-read"; rowId: number; success: boolean; final: boolean }
  /** No receipt of any of its rows: the wallet's transaction count, read at one pinned head block. */
  | { kind: "count-read"; pinnedBlock: bigint; countAtPinned: number }
  /** Settling left it open; `atWalletNext`: it is the wallet's next nonce, everything after it waits for it. */
  | { kind: "still-open"; atWalletNext: boolean };

export type StallAction = "none" | "cancel" | "reprice" | "wait-for-operator";

export type NonceDecision =
  | { outcome: "mined"; rowId: number; success: boolean }
  /** A receipt not final yet: nothing is decided, nothing re-sent; a reorg may still move or remove it. */
  | { outcome: "included"; rowId: number }
  /** Used by a transaction outside the ledger: every row of the nonce is replaced, none paid. */
  | { outcome: "taken-by-other" }
  | { outcome: "open"; nonceUsedSeenBlock: bigint | null; nonceUsedSince: Date | null; atWalletNext: boolean }
  /** What to do about an open nonce that may block its wallet (decideStall). */
  | { outcome: StallAction };

/**
 * Only a final receipt settles a row. "The nonce moved and there is no receipt" is no proof (a
 * load-balanced endpoint answers the count from a node ahead of the one answering receipts), so it
 * decides only once the nonce has stayed used for DROP_AFTER_MS, each time read as the count at one
 * pinned block; a head older than the one it was first seen at decides nothing.
 */
export function decideNonce(state: NonceState, fact: NonceFact, now: Date): NonceDecision {
  switch (fact.kind) {
    case "receipt-read":
      return fact.final ? { outcome: "mined", rowId: fact.rowId, success: fact.success } : { outcome: "included", rowId: fact.rowId };
    case "count-read": {
      if (fact.countAtPinned > state.nonce) {
        const seenBlock = state.nonceUsedSeenBlock ?? fact.pinnedBlock;
        const since = state.nonceUsedSince ?? now;
        if (fact.pinnedBlock >= seenBlock && now.getTime() - since.getTime() >= DROP_AFTER_MS) return { outcome: "taken-by-other" };
        return { outcome: "open", nonceUsedSeenBlock: seenBlock, nonceUsedSince: since, atWalletNext: false };
      }
      return { outcome: "open", nonceUsedSeenBlock: null, nonceUsedSince: null, atWalletNext: fact.countAtPinned === state.nonce };
    }
    case "still-open":
      return { outcome: decideStall(state, fact.atWalletNext, now) };
  }
}

/**
 * When the receipts of a nonce settled as taken by another are read next: soon at first, then
 * backing off (half its age, 30 s to 1 h), for RECHECK_RECEIPTS_FOR_MS; null once that is over
 * (then only the operator's `admin ledger resettle` reads them).
 */
export function nextReceiptRecheck(settledAt: Date, now: Date): Date | null {
  const age = now.getTime() - settledAt.getTime();
  if (age >= RECHECK_RECEIPTS_FOR_MS) return null;
  const wait = Math.min(3600_000, Math.max(30_000, Math.floor(age / 2)));
  return new Date(now.getTime() + wait);
}

/** How soon a receipt found but not final yet is read again. */
export const NOT_FINAL_RECHECK_MS = 30_000;

/**
 * The next re-read after one that found no final receipt: soon if one was found but is not final
 * yet, else backing off — and either way none once RECHECK_RECEIPTS_FOR_MS is over (a receipt
 * served from a block that never becomes final, an orphaned one, must not be read for ever).
 */
export function nextRecheckAfterRead(settledAt: Date, now: Date, receiptFound: boolean): Date | null {
  const backingOff = nextReceiptRecheck(settledAt, now);
  if (backingOff === null || !receiptFound) return backingOff;
  return new Date(now.getTime() + NOT_FINAL_RECHECK_MS);
}

/**
 * A refused-for-good transaction (the node will never take it) has its nonce filled with a 0-value
 * self-transfer at once; one that is merely not mined within STUCK_AFTER_MS — whatever the node
 * answered: "underpriced", "already known", a timeout — is sent again at a higher fee. Both are
 * bounded, so a stall can never spend without limit; past the bound it waits, visibly.
 */
function decideStall(state: NonceState, atWalletNext: boolean, now: Date): StallAction {
  if (!atWalletNext) return "none";
  const due = state.newest.refusedForGood || now.getTime() - state.newest.createdAt.getTime() >= STUCK_AFTER_MS;
  if (!due) return "none";
  if (!state.replaceable || state.replacements >= MAX_REPLACEMENTS) return "wait-for-operator";
  if (state.newest.refusedForGood && state.newest.kind !== "cancel") return "cancel";
  return "reprice";
}

/** Whether the nonce is shown as a stall (health, admin status, metric): at the wallet's next nonce, not mined within the bound. */
export function isStalled(atWalletNext: boolean, nonceSince: Date, now: Date): boolean {
  return atWalletNext && now.getTime() - nonceSince.getTime() >= STUCK_AFTER_MS;
}

/**
 * A replacement's fee: at least double the one it replaces (nodes want +10%), and never under the
 * network's current price — but never above MAX_GAS_PRICE (`cap`). Null when the cap leaves no room
 * for a replacement a node would take (under +10%): the nonce then waits, visibly, rather than pay more.
 */
export function replacementGasPrice(previous: bigint, current: bigint, cap: bigint): bigint | null {
  const doubled = previous * 2n;
  const wanted = doubled > current ? doubled : current;
  const price = wanted > cap ? cap : wanted;
  return price * 10n >= previous * 11n ? price : null;
}
