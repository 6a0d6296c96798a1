import { describe, expect, it } from "vitest";
import type { ForwardStatus } from "@/lib/db/schema";
import { backoffSeconds, MAX_FORWARD_ATTEMPTS, MAX_RETRYABLE_PAUSE_SECONDS } from "@/lib/engine/forwarding/forward-schedule";
import {
  BATCH_SIBLING_CHECK_SECONDS,
  decideForward,
  type ForwardChange,
  type ForwardFact,
  type ForwardState,
  MAX_SWEEP_REVERTS,
} from "@/lib/engine/forwarding/forward-state";

const NOW = new Date("2026-11-25T12:00:00Z");
const inSeconds = (s: number) => new Date(NOW.getTime() + s * 1000);
const state = (status: ForwardStatus, over: Partial<ForwardState> = {}): ForwardState => ({
  status,
  attempts: 0,
  sweepReverts: 0,
  classicOnly: false,
  ...over,
});
const accepted = (s: ForwardState, fact: ForwardFact) => {
  const decision = decideForward(s, fact, NOW);
  if (!decision.accepted) throw new Error(`refused: ${decision.why}`);
  return decision;
};

describe("decideForward: each fact moves a forward as the state machine says", () => {
  it.each<[string, ForwardState, ForwardFact, Partial<ForwardChange>]>([
    ["the gas step recorded", state("pending"), { kind: "gas-recorded" }, { status: "gas_sent", lastError: null }],
    ["the sweep recorded", state("gas_sent"), { kind: "sweep-recorded" }, { status: "sweep_sent" }],
    [
      "the first entry of a batch checks it every second",
      state("pending"),
      { kind: "batched", entryIndex: 0 },
      { status: "batched", lastError: null, nextAttemptAt: inSeconds(1) },
    ],
    [
      "the other entries stand in for it, less often",
      state("pending"),
      { kind: "batched", entryIndex: 7 },
      { status: "batched", nextAttemptAt: inSeconds(BATCH_SIBLING_CHECK_SECONDS) },
    ],
    [
      "a classic sweep mined",
      state("sweep_sent", { attempts: 2 }),
      { kind: "swept", gasUsed: 29_600n },
      { status: "completed", completedAt: NOW, gasUsed: 29_600n, lastError: null, attempts: 2 },
    ],
    ["its batch entry swept", state("batched"), { kind: "swept", gasUsed: 14_000n }, { status: "completed", gasUsed: 14_000n }],
    [
      "a top-up that never happened: planned afresh after the backoff one more failure earns",
      state("gas_sent", { attempts: 1 }),
      { kind: "top-up-failed", reason: "gas top-up replaced" },
      { status: "pending", attempts: 2, forgetPlan: true, lastError: "gas top-up replaced", nextAttemptAt: inSeconds(backoffSeconds(2)) },
    ],
    [
      "a sweep whose nonce another transaction took",
      state("sweep_sent"),
      { kind: "sweep-lost", reason: "nonce used by another" },
      { status: "pending", attempts: 1, forgetPlan: true, nextAttemptAt: inSeconds(backoffSeconds(1)) },
    ],
    [
      "a sweep without a record: planned again in a second, not counted",
      state("sweep_sent"),
      { kind: "sweep-unrecorded", reason: "no record" },
      { status: "pending", attempts: 0, forgetPlan: true, nextAttemptAt: inSeconds(1) },
    ],
    [
      "a first revert: planned again with a fresh estimate",
      state("sweep_sent"),
      { kind: "sweep-reverted", reason: "sweep 0xab reverted on chain" },
      {
        status: "pending",
        sweepReverts: 1,
        attempts: 1,
        forgetPlan: true,
        lastError: "sweep 0xab reverted on chain; retrying with a fresh estimate",
      },
    ],
    [
      "a failed batch entry: the classic path from now on, counted",
      state("batched"),
      { kind: "batch-failed", reason: "its entry failed" },
      { status: "pending", classicOnly: true, attempts: 1, forgetBatch: true, nextAttemptAt: inSeconds(1) },
    ],
    [
      "a replaced batch: batch again",
      state("batched"),
      { kind: "batch-replaced", reason: "replaced" },
      { status: "pending", classicOnly: false, attempts: 1, forgetBatch: true, nextAttemptAt: inSeconds(1) },
    ],
    [
      "left out of a batch being formed: stays pending, classic only",
      state("pending"),
      { kind: "left-batch", reason: "its balance is short of the ledger" },
      { status: "pending", classicOnly: true, lastError: "left the batch: its balance is short of the ledger" },
    ],
    [
      "a node that does not answer: not counted, a short pause",
      state("pending", { attempts: 3 }),
      { kind: "step-failed", reason: "fetch failed", errorKind: "transient" },
      { status: "pending", attempts: 3, lastError: "fetch failed", nextAttemptAt: inSeconds(backoffSeconds(4)) },
    ],
    [
      "a provider that throttles: the longest short pause",
      state("gas_sent"),
      { kind: "step-failed", reason: "429", errorKind: "rate-limited" },
      { status: "gas_sent", attempts: 0, nextAttemptAt: inSeconds(MAX_RETRYABLE_PAUSE_SECONDS) },
    ],
    [
      "a refusal that repeats, in flight: counted, never held",
      state("sweep_sent", { attempts: MAX_FORWARD_ATTEMPTS + 3 }),
      { kind: "step-failed", reason: "refused", errorKind: "rejected" },
      { status: "sweep_sent", attempts: MAX_FORWARD_ATTEMPTS + 4 },
    ],
    [
      "waiting for a receipt, company or the gas tank",
      state("pending"),
      { kind: "wait", seconds: 30, reason: "gas tank holds 0 wei" },
      { status: "pending", nextAttemptAt: inSeconds(30), lastError: "gas tank holds 0 wei" },
    ],
    [
      "waiting keeps the last error when it gives no reason",
      state("gas_sent", { attempts: 1 }),
      { kind: "wait", seconds: 1 },
      { status: "gas_sent", nextAttemptAt: inSeconds(1) },
    ],
    [
      "the operator retries a held forward with a clean slate",
      state("held", { attempts: MAX_FORWARD_ATTEMPTS, sweepReverts: 2 }),
      { kind: "operator-retry" },
      { status: "pending", attempts: 0, sweepReverts: 0, heldReason: null, heldAt: null, nextAttemptAt: NOW },
    ],
  ])("%s", (_name, from, fact, expected) => {
    const { next, events } = accepted(from, fact);
    expect(next).toMatchObject(expected);
    if (fact.kind === "wait" && fact.reason === undefined) expect(next).not.toHaveProperty("lastError");
    expect(events).toEqual(next.status === "completed" ? [{ type: "completed" }] : []);
  });
});

describe("decideForward: the ways into held", () => {
  it.each<[string, ForwardState, ForwardFact, RegExp, Partial<ForwardChange>]>([
    [
      "a token that refuses, before anything is sent",
      state("pending"),
      { kind: "needs-operator", reason: "the token's transfer reverts" },
      /reverts/,
      {},
    ],
    [
      "a key that does not match, with the top-up mined",
      state("gas_sent"),
      { kind: "needs-operator", reason: "the deposit key does not match" },
      /key/,
      {},
    ],
    [
      `the ${MAX_SWEEP_REVERTS}nd revert`,
      state("sweep_sent", { sweepReverts: MAX_SWEEP_REVERTS - 1, attempts: 1 }),
      { kind: "sweep-reverted", reason: "sweep 0xcd reverted on chain" },
      /reverted on chain \(2 times\); the token refuses the transfer/,
      { sweepReverts: MAX_SWEEP_REVERTS, attempts: 1 },
    ],
    [
      "the last counted failure of a pending forward",
      state("pending", { attempts: MAX_FORWARD_ATTEMPTS - 1 }),
      { kind: "step-failed", reason: "execution reverted", errorKind: "rejected" },
      new RegExp(`gave up after ${MAX_FORWARD_ATTEMPTS} failed attempts; last: execution reverted`),
      { attempts: MAX_FORWARD_ATTEMPTS },
    ],
  ])("%s", (_name, from, fact, reason, extra) => {
    const { next, events } = accepted(from, fact);
    expect(next).toMatchObject({ status: "held", heldAt: NOW, ...extra });
    expect(next.heldReason).toMatch(reason);
    expect(next.lastError).toBe(next.heldReason);
    expect(events).toEqual([{ type: "held", reason: next.heldReason }]);
  });

  it("keeps reasons to 500 characters", () => {
    const { next } = accepted(state("pending"), { kind: "needs-operator", reason: "x".repeat(2_000) });
    expect(next.heldReason).toHaveLength(500);
  });
});

describe("decideForward: a fact that does not apply changes nothing", () => {
  const everyStatus: ForwardStatus[] = ["pending", "gas_sent", "sweep_sent", "batched", "completed", "held"];
  const applies: Record<ForwardFact["kind"], ForwardStatus[]> = {
    "gas-recorded": ["pending"],
    "sweep-recorded": ["gas_sent"],
    batched: ["pending"],
    swept: ["sweep_sent", "batched"],
    "top-up-failed": ["gas_sent"],
    "sweep-lost": ["sweep_sent"],
    "sweep-unrecorded": ["sweep_sent"],
    "sweep-reverted": ["sweep_sent"],
    "batch-failed": ["batched"],
    "batch-replaced": ["batched"],
    "left-batch": ["pending"],
    "needs-operator": ["pending", "gas_sent", "sweep_sent"],
    "step-failed": ["pending", "gas_sent", "sweep_sent", "batched"],
    wait: ["pending", "gas_sent", "sweep_sent", "batched"],
    "operator-retry": ["held"],
  };
  const facts: ForwardFact[] = [
    { kind: "gas-recorded" },
    { kind: "sweep-recorded" },
    { kind: "batched", entryIndex: 0 },
    { kind: "swept", gasUsed: 1n },
    { kind: "top-up-failed", reason: "r" },
    { kind: "sweep-lost", reason: "r" },
    { kind: "sweep-unrecorded", reason: "r" },
    { kind: "sweep-reverted", reason: "r" },
    { kind: "batch-failed", reason: "r" },
    { kind: "batch-replaced", reason: "r" },
    { kind: "left-batch", reason: "r" },
    { kind: "needs-operator", reason: "r" },
    { kind: "step-failed", reason: "r", errorKind: "rejected" },
    { kind: "wait", seconds: 1 },
    { kind: "operator-retry" },
  ];
  const cases = facts.flatMap((fact) =>
    everyStatus.filter((status) => !applies[fact.kind].includes(status)).map((status) => [fact.kind, status, fact] as const),
  );

  it.each(cases)("%s on a %s forward", (_kind, status, fact) => {
    expect(decideForward(state(status), fact, NOW)).toMatchObject({ accepted: false });
  });

  it("covers every fact and keeps completed final", () => {
    expect(facts.map((f) => f.kind).sort()).toEqual(Object.keys(applies).sort());
    for (const fact of facts) expect(decideForward(state("completed"), fact, NOW).accepted).toBe(false);
  });

  it("a classic-only forward never joins a batch", () => {
    expect(decideForward(state("pending", { classicOnly: true }), { kind: "batched", entryIndex: 0 }, NOW)).toMatchObject({
      accepted: false,
    });
  });
});
