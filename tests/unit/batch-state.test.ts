import { describe, expect, it } from "vitest";
import {
  afterFailedCheck,
  type BatchFact,
  type BatchState,
  classicAfterRefusals,
  decideBatch,
  decideNetworkBatching,
  FRESH_NETWORK,
  MAX_FAILED_CHECKS,
  MAX_REFUSED_BATCHES,
  type NetworkBatching,
  type NetworkFact,
  TANK_LOW_PAUSE_SECONDS,
  tankLowPause,
} from "@/lib/engine/forwarding/batched/batch-state";

const NOW = new Date("2026-11-25T12:00:00Z");
const sent = (over: Partial<BatchState> = {}): BatchState => ({ status: "sent", kind: "sweep", size: 3, txHash: "0xbatch", ...over });
const swept = (flags: [number, boolean][]) => new Map(flags);

describe("decideBatch: a batch's outcome, and what each forward still in it learns", () => {
  it("waits while the batch is on its way", () => {
    expect(decideBatch(sent(), { kind: "open" }, [0, 1, 2], NOW)).toEqual({ next: null, entries: [], events: [] });
  });

  it("mined: entries whose own Swept says ok are swept, with an equal share of the gas; the others go classic", () => {
    const decision = decideBatch(
      sent(),
      {
        kind: "mined",
        gasUsed: 100_000n,
        swept: swept([
          [0, true],
          [1, false],
        ]),
      },
      [0, 1, 2],
      NOW,
    );
    expect(decision.next).toEqual({ status: "mined", gasUsed: 100_000n, minedAt: NOW });
    expect(decision.entries).toEqual([
      { index: 0, fact: { kind: "swept", gasUsed: 33_333n } },
      { index: 1, fact: { kind: "batch-failed", reason: "its entry in batch 0xbatch failed; sweeping it the classic way" } },
      // No Swept event of the sweeper for it at all: it did not sweep.
      { index: 2, fact: { kind: "batch-failed", reason: "its entry in batch 0xbatch failed; sweeping it the classic way" } },
    ]);
    expect(decision.events).toEqual([{ type: "entries-failed", count: 2 }]);
  });

  it("mined with every entry swept reports nothing failed", () => {
    const decision = decideBatch(
      sent({ size: 2 }),
      {
        kind: "mined",
        gasUsed: 7n,
        swept: swept([
          [0, true],
          [1, true],
        ]),
      },
      [0, 1],
      NOW,
    );
    expect(decision.entries.map((e) => e.fact)).toEqual([
      { kind: "swept", gasUsed: 3n },
      { kind: "swept", gasUsed: 3n },
    ]);
    expect(decision.events).toEqual([]);
  });

  it("reverted: every forward goes the classic way", () => {
    const decision = decideBatch(sent({ size: 2 }), { kind: "reverted", gasUsed: 50_000n }, [0, 1], NOW);
    expect(decision.next).toEqual({ status: "reverted", gasUsed: 50_000n, minedAt: NOW });
    expect(decision.entries.every((e) => e.fact.kind === "batch-failed")).toBe(true);
    expect(decision.events).toEqual([{ type: "reverted" }]);
  });

  it.each([
    ["by our own filler after the node refused it: counted against the network", true, [{ type: "refused" }]],
    ["by a transaction the service did not sign", false, []],
  ] as const)("replaced %s; its forwards batch again", (_name, refused, events) => {
    const decision = decideBatch(sent({ size: 2 }), { kind: "replaced", refused }, [0, 1], NOW);
    expect(decision.next).toEqual({ status: "replaced", gasUsed: null, minedAt: null });
    expect(decision.entries.map((e) => e.fact.kind)).toEqual(["batch-replaced", "batch-replaced"]);
    expect(decision.events).toEqual(events);
  });

  it("an outcome already recorded is not recorded (nor counted) again, but forwards still batched learn it", () => {
    const facts: BatchFact[] = [
      { kind: "mined", gasUsed: 1n, swept: swept([[0, true]]) },
      { kind: "replaced", refused: true },
    ];
    for (const fact of facts) {
      const decision = decideBatch(sent({ status: fact.kind === "mined" ? "mined" : "replaced" }), fact, [0], NOW);
      expect(decision.next).toBeNull();
      expect(decision.entries).toHaveLength(1);
      expect(decision.events.some((e) => e.type === "refused")).toBe(false);
    }
  });

  it.each(["deploy_sweeper", "deploy_delegate"] as const)("a %s transaction records its outcome and touches no forward", (kind) => {
    const mined = decideBatch(sent({ kind, size: 0 }), { kind: "mined", gasUsed: 300_000n, swept: new Map() }, [], NOW);
    expect(mined).toEqual({ next: { status: "mined", gasUsed: 300_000n, minedAt: NOW }, entries: [], events: [] });
    const refused = decideBatch(sent({ kind, size: 0 }), { kind: "replaced", refused: true }, [], NOW);
    expect(refused.events).toEqual([]); // deployments are counted by their own rule (sweep-deploy.ts)
  });
});

describe("decideNetworkBatching: whether a network batches, as the database holds it", () => {
  const replay = (facts: NetworkFact[], from: NetworkBatching = FRESH_NETWORK) =>
    facts.reduce((state, fact) => decideNetworkBatching(state, fact, NOW), from);

  it(`goes classic after ${MAX_REFUSED_BATCHES} refused batches, until the operator resets it`, () => {
    const once = replay([{ kind: "batch-refused" }]);
    expect(classicAfterRefusals(once)).toBeNull();
    const twice = replay([{ kind: "batch-refused" }, { kind: "batch-refused" }]);
    expect(classicAfterRefusals(twice)).toMatch(
      /did not mine 2 sweep batches; classic sweeps until an operator runs npm run admin -- sweeper retry-batches/,
    );
    // Restarts and passing checks change nothing: only the operator does.
    expect(classicAfterRefusals(replay([{ kind: "check-passed" }, { kind: "tank-low" }], twice))).not.toBeNull();
    expect(classicAfterRefusals(replay([{ kind: "operator-reset" }], twice))).toBeNull();
  });

  it(`waits on a node that cannot answer, and goes classic meanwhile after ${MAX_FAILED_CHECKS} failures in a row`, () => {
    let state = FRESH_NETWORK;
    for (let i = 1; i < MAX_FAILED_CHECKS; i++) {
      state = decideNetworkBatching(state, { kind: "check-failed", reason: `timeout ${i}` }, NOW);
      expect(afterFailedCheck(state)).toEqual({ state: "wait", reason: `could not check batched sweeping: timeout ${i}` });
    }
    state = decideNetworkBatching(state, { kind: "check-failed", reason: "timeout" }, NOW);
    expect(afterFailedCheck(state).state).toBe("classic");
    const recovered = decideNetworkBatching(state, { kind: "check-passed" }, NOW);
    expect(recovered).toMatchObject({ failedChecks: 0, lastCheckError: null });
    expect(classicAfterRefusals(recovered)).toBeNull();
  });

  it("a passing check on a clean record writes nothing (the same state comes back)", () => {
    expect(decideNetworkBatching(FRESH_NETWORK, { kind: "check-passed" }, NOW)).toBe(FRESH_NETWORK);
  });

  it(`pauses batch formation for ${TANK_LOW_PAUSE_SECONDS} s when the gas tank cannot pay a batch`, () => {
    const low = replay([{ kind: "tank-low" }]);
    expect(tankLowPause(low, NOW)).toBe(true);
    expect(tankLowPause(low, new Date(NOW.getTime() + TANK_LOW_PAUSE_SECONDS * 1000 - 1))).toBe(true);
    expect(tankLowPause(low, new Date(NOW.getTime() + TANK_LOW_PAUSE_SECONDS * 1000))).toBe(false);
    expect(tankLowPause(FRESH_NETWORK, NOW)).toBe(false);
  });
});
