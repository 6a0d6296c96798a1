/**
 * The ledger's two decisions, as pure functions of what the chain said (DESIGN.md §17): how a
 * nonce of a wallet ended, and what to do about a nonce that blocks its wallet. Nothing else in
 * the code decides "dropped", "replaced" or "stuck".
 */

/** Blocks the nonce must stay used without any receipt of ours before it counts as taken by a transaction we did not sign. */
export const DROP_AFTER_BLOCKS = 64n;
/** How long a transaction may sit at its wallet's next nonce before it is re-priced. */
export const STUCK_AFTER_MS = 60_000;
/** Re-prices and cancels per nonce: the fee at most doubles this many times, then the stall waits for the operator. */
export const MAX_REPLACEMENTS = 3;

export interface NonceFacts {
  nonce: number;
  /** A receipt of one of the nonce's rows, if any was found. */
  receipt: { rowId: number; success: boolean } | null;
  /** The head block the wallet's transaction count was read at, and that count. */
  pinnedBlock: bigint;
  countAtPinned: number;
  /** The pinned block at which the nonce was first seen used without a receipt. */
  nonceUsedSeenBlock: bigint | null;
}

export type NonceDecision =
  | { outcome: "mined"; rowId: number; success: boolean }
  /** Used by a transaction outside the ledger: every row of the nonce is replaced, none paid. */
  | { outcome: "taken-by-other" }
  | { outcome: "open"; nonceUsedSeenBlock: bigint | null; atWalletNext: boolean };

/**
 * Only a receipt settles a row. "The nonce moved and there is no receipt" is no proof (a
 * load-balanced endpoint answers the count from a node ahead of the one answering receipts), so it
 * decides only after DROP_AFTER_BLOCKS more blocks, each read as the count at one pinned block: a
 * node that is behind sees an older block and cannot bring the decision forward.
 */
export function decideNonce(facts: NonceFacts): NonceDecision {
  if (facts.receipt) return { outcome: "mined", rowId: facts.receipt.rowId, success: facts.receipt.success };
  if (facts.countAtPinned > facts.nonce) {
    const seen = facts.nonceUsedSeenBlock ?? facts.pinnedBlock;
    if (facts.pinnedBlock - seen >= DROP_AFTER_BLOCKS) return { outcome: "taken-by-other" };
    return { outcome: "open", nonceUsedSeenBlock: seen, atWalletNext: false };
  }
  return { outcome: "open", nonceUsedSeenBlock: null, atWalletNext: facts.countAtPinned === facts.nonce };
}

export interface StallFacts {
  /** The nonce is the wallet's next on chain: everything after it waits for it. */
  atWalletNext: boolean;
  /** The newest row of the nonce (the one being broadcast). */
  newest: { kind: string; createdAt: Date; refusedForGood: boolean };
  /** Rows of the nonce that replace an earlier one. */
  replacements: number;
  /** Whether the service can pay a replacement from this wallet (deposit addresses hold no spare BNB). */
  replaceable: boolean;
  now: Date;
}

export type StallAction = "none" | "cancel" | "reprice" | "wait-for-operator";

/**
 * A refused-for-good transaction (the node will never take it) has its nonce filled with a 0-value
 * self-transfer at once; one that is merely not mined within STUCK_AFTER_MS — whatever the node
 * answered: "underpriced", "already known", a timeout — is sent again at a higher fee. Both are
 * bounded, so a stall can never spend without limit; past the bound it waits, visibly.
 */
export function decideStall(facts: StallFacts): StallAction {
  if (!facts.atWalletNext) return "none";
  const due = facts.newest.refusedForGood || facts.now.getTime() - facts.newest.createdAt.getTime() >= STUCK_AFTER_MS;
  if (!due) return "none";
  if (!facts.replaceable || facts.replacements >= MAX_REPLACEMENTS) return "wait-for-operator";
  if (facts.newest.refusedForGood && facts.newest.kind !== "cancel") return "cancel";
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
