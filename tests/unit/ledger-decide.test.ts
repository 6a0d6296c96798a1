import { describe, expect, it } from "vitest";
import {
  DROP_AFTER_MS,
  decideNonce,
  isStalled,
  MAX_REPLACEMENTS,
  NOT_FINAL_RECHECK_MS,
  type NonceState,
  nextReceiptRecheck,
  nextRecheckAfterRead,
  RECHECK_RECEIPTS_FOR_MS,
  replacementGasPrice,
  STUCK_AFTER_MS,
} from "@/lib/engine/ledger/decide";

/** What the settler read of a nonce: a receipt of one of its rows (if any), else the count at a pinned block. */
interface NonceFacts {
  nonce: number;
  receipt: { rowId: number; success: boolean; final: boolean } | null;
  pinnedBlock: bigint;
  countAtPinned: number;
  nonceUsedSeenBlock: bigint | null;
  nonceUsedSince: Date | null;
  now: Date;
}

const NEWEST = { kind: "withdrawal", createdAt: new Date(0), refusedForGood: false };

/** The settler's decision: the ledger's state of the nonce, and what the chain said as a fact. */
function settle(facts: NonceFacts) {
  const state: NonceState = { ...facts, newest: NEWEST, replacements: 0, replaceable: true };
  return decideNonce(
    state,
    facts.receipt
      ? { kind: "receipt-read", ...facts.receipt }
      : { kind: "count-read", pinnedBlock: facts.pinnedBlock, countAtPinned: facts.countAtPinned },
    facts.now,
  );
}

const at = new Date("2026-11-23T12:00:00Z");
const later = (ms: number) => new Date(at.getTime() + ms);
const nonce = (overrides: Partial<NonceFacts> = {}): NonceFacts => ({
  nonce: 7,
  receipt: null,
  pinnedBlock: 1_000n,
  countAtPinned: 7,
  nonceUsedSeenBlock: null,
  nonceUsedSince: null,
  now: at,
  ...overrides,
});

describe("decideNonce: only a final receipt settles a row", () => {
  it.each([
    [
      "a final receipt of one of its rows settles the nonce",
      nonce({ receipt: { rowId: 3, success: true, final: true }, countAtPinned: 8 }),
      { outcome: "mined", rowId: 3, success: true },
    ],
    [
      "a final reverted receipt settles it too",
      nonce({ receipt: { rowId: 4, success: false, final: true }, countAtPinned: 8 }),
      { outcome: "mined", rowId: 4, success: false },
    ],
    [
      "a receipt not at depth yet (or no longer in the chain's block at its height) decides nothing",
      nonce({ receipt: { rowId: 3, success: true, final: false }, countAtPinned: 8 }),
      { outcome: "included", rowId: 3 },
    ],
    [
      "nonce free and next: open, at the wallet's next nonce",
      nonce(),
      { outcome: "open", nonceUsedSeenBlock: null, nonceUsedSince: null, atWalletNext: true },
    ],
    [
      "nonce free behind another: open, waiting behind",
      nonce({ countAtPinned: 5 }),
      { outcome: "open", nonceUsedSeenBlock: null, nonceUsedSince: null, atWalletNext: false },
    ],
    // A load-balanced endpoint: the count from a node ahead, no receipt yet from the one behind.
    [
      "nonce used, no receipt, first seen: remembered, still open",
      nonce({ countAtPinned: 8 }),
      { outcome: "open", nonceUsedSeenBlock: 1_000n, nonceUsedSince: at, atWalletNext: false },
    ],
    [
      "nonce used, no receipt, 1,000 blocks but under 5 minutes on (a receipts node a few minutes behind): still open",
      nonce({ countAtPinned: 8, pinnedBlock: 2_000n, nonceUsedSeenBlock: 1_000n, nonceUsedSince: at, now: later(DROP_AFTER_MS - 1) }),
      { outcome: "open", nonceUsedSeenBlock: 1_000n, nonceUsedSince: at, atWalletNext: false },
    ],
    [
      "nonce used, no receipt, 5 minutes on: taken by a transaction we did not sign",
      nonce({ countAtPinned: 8, pinnedBlock: 1_001n, nonceUsedSeenBlock: 1_000n, nonceUsedSince: at, now: later(DROP_AFTER_MS) }),
      { outcome: "taken-by-other" },
    ],
    [
      "a lagging head (pinned block older than first seen) never decides",
      nonce({ countAtPinned: 8, pinnedBlock: 990n, nonceUsedSeenBlock: 1_000n, nonceUsedSince: at, now: later(DROP_AFTER_MS * 10) }),
      { outcome: "open", nonceUsedSeenBlock: 1_000n, nonceUsedSince: at, atWalletNext: false },
    ],
    [
      "the nonce free again (a reorg): forgotten",
      nonce({ countAtPinned: 7, nonceUsedSeenBlock: 1_000n, nonceUsedSince: at }),
      { outcome: "open", nonceUsedSeenBlock: null, nonceUsedSince: null, atWalletNext: true },
    ],
  ] as const)("%s", (_name, facts, expected) => {
    expect(settle(facts)).toEqual(expected);
  });
});

describe("nextReceiptRecheck: a nonce taken by another has its receipts read again, backing off, for a day", () => {
  it.each([
    ["at once after the decision: in 30 s", 0, 30_000],
    ["10 minutes on: in 5 minutes", 600_000, 300_000],
    ["5 hours on: in an hour at most", 5 * 3600_000, 3600_000],
  ])("%s", (_name, age, wait) => {
    expect(nextReceiptRecheck(at, later(age))!.getTime() - later(age).getTime()).toBe(wait);
  });

  it("stops after RECHECK_RECEIPTS_FOR_MS (then only the operator's resettle reads them)", () => {
    expect(nextReceiptRecheck(at, later(RECHECK_RECEIPTS_FOR_MS))).toBeNull();
  });
});

describe("nextRecheckAfterRead: a receipt found but never final (an orphaned block's)", () => {
  it("is read again in 30 s while the day lasts, whatever the backoff", () => {
    for (const age of [0, 600_000, 5 * 3600_000])
      expect(nextRecheckAfterRead(at, later(age), true)!.getTime() - later(age).getTime()).toBe(NOT_FINAL_RECHECK_MS);
  });

  it("is read no more after RECHECK_RECEIPTS_FOR_MS, like a nonce with no receipt", () => {
    expect(nextRecheckAfterRead(at, later(RECHECK_RECEIPTS_FOR_MS), true)).toBeNull();
    expect(nextRecheckAfterRead(at, later(RECHECK_RECEIPTS_FOR_MS + 3600_000), true)).toBeNull();
    expect(nextRecheckAfterRead(at, later(RECHECK_RECEIPTS_FOR_MS), false)).toBeNull();
  });

  it("backs off as nextReceiptRecheck when no receipt was found", () => {
    expect(nextRecheckAfterRead(at, later(600_000), false)).toEqual(nextReceiptRecheck(at, later(600_000)));
  });
});

const now = new Date("2026-11-23T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
interface StallFacts extends Pick<NonceState, "newest" | "replacements" | "replaceable"> {
  atWalletNext: boolean;
  now: Date;
}

/** The watchdog's decision about a nonce the settler left open. */
function decideStall({ atWalletNext, now, ...state }: StallFacts) {
  return decideNonce({ ...state, nonce: 7, nonceUsedSeenBlock: null, nonceUsedSince: null }, { kind: "still-open", atWalletNext }, now)
    .outcome;
}

const stall = (overrides: Partial<StallFacts> = {}, newest: Partial<StallFacts["newest"]> = {}): StallFacts => ({
  atWalletNext: true,
  newest: { kind: "withdrawal", createdAt: ago(STUCK_AFTER_MS), refusedForGood: false, ...newest },
  replacements: 0,
  replaceable: true,
  now,
  ...overrides,
});

describe("decideStall: a wallet's next nonce is re-priced or filled, within bounds", () => {
  it.each([
    ["not the wallet's next nonce: it waits behind another", stall({ atWalletNext: false }), "none"],
    ["young: not stuck yet", stall({}, { createdAt: ago(STUCK_AFTER_MS - 1) }), "none"],
    ["not mined within the bound (whatever the node said): re-priced", stall(), "reprice"],
    ["refused for good: its nonce filled at once", stall({}, { createdAt: ago(1_000), refusedForGood: true }), "cancel"],
    ["a refused cancel: the cancel re-priced", stall({}, { kind: "cancel", refusedForGood: true }), "reprice"],
    ["replacements used up: waits for the operator", stall({ replacements: MAX_REPLACEMENTS }), "wait-for-operator"],
    ["a deposit address (no spare BNB): shown, not replaced", stall({ replaceable: false }), "wait-for-operator"],
  ] as const)("%s", (_name, facts, expected) => {
    expect(decideStall(facts)).toBe(expected);
  });

  it("shows a stall only at the wallet's next nonce, past the bound", () => {
    expect(isStalled(true, ago(STUCK_AFTER_MS), now)).toBe(true);
    expect(isStalled(true, ago(STUCK_AFTER_MS - 1), now)).toBe(false);
    expect(isStalled(false, ago(10 * STUCK_AFTER_MS), now)).toBe(false);
  });

  it("prices a replacement at twice the last fee, or the network's price if higher", () => {
    expect(replacementGasPrice(5n, 3n, 1000n)).toBe(10n);
    expect(replacementGasPrice(5n, 30n, 1000n)).toBe(30n);
  });

  it("never prices a replacement above MAX_GAS_PRICE, and gives up when the cap leaves no +10% room", () => {
    expect(replacementGasPrice(50n, 10n, 80n)).toBe(80n); // doubling would be 100
    expect(replacementGasPrice(50n, 500n, 80n)).toBe(80n); // the node's own price is above the cap
    expect(replacementGasPrice(80n, 10n, 80n)).toBeNull(); // already at the cap
    expect(replacementGasPrice(75n, 10n, 80n)).toBeNull(); // +6.7%: a node would not take it
  });
});
