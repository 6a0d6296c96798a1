import { describe, expect, it } from "vitest";
import type { ForwardStatus } from "@/lib/db/schema";
import type { RpcErrorKind } from "@/lib/engine/chain/rpc-errors";
import {
  askAgainAt,
  backoffSeconds,
  decideFailure,
  isForwardDue,
  MAX_FORWARD_ATTEMPTS,
  MAX_RETRYABLE_PAUSE_SECONDS,
} from "@/lib/engine/forwarding/forward-schedule";

const row = (status: ForwardStatus, attempts: number) => ({ status, attempts });

describe("decideFailure: only failures that repeat count toward holding a forward", () => {
  it.each([
    // An RPC that does not answer or throttles us: never counted, never held, a short bounded pause.
    ["a node that does not answer, first time", row("pending", 0), "transient", { hold: false, attempts: 0, retryInSeconds: 5 }],
    [
      "a node that does not answer, after two real failures",
      row("pending", 2),
      "transient",
      { hold: false, attempts: 2, retryInSeconds: 20 },
    ],
    [
      "a node that does not answer, one real failure short of the hold",
      row("pending", MAX_FORWARD_ATTEMPTS - 1),
      "transient",
      { hold: false, attempts: MAX_FORWARD_ATTEMPTS - 1, retryInSeconds: MAX_RETRYABLE_PAUSE_SECONDS },
    ],
    [
      "a node that does not answer, in flight and long past the count",
      row("sweep_sent", 40),
      "transient",
      { hold: false, attempts: 40, retryInSeconds: MAX_RETRYABLE_PAUSE_SECONDS },
    ],
    [
      "a provider that throttles us",
      row("pending", 0),
      "rate-limited",
      { hold: false, attempts: 0, retryInSeconds: MAX_RETRYABLE_PAUSE_SECONDS },
    ],
    // Anything else would fail the same way again: counted, backing off exponentially, held at the bound.
    ["a refusal, first time", row("pending", 0), "rejected", { hold: false, attempts: 1, retryInSeconds: 5 }],
    ["a refusal, third time", row("pending", 2), "rejected", { hold: false, attempts: 3, retryInSeconds: 20 }],
    ["an answer read as too large a range", row("pending", 3), "range-too-large", { hold: false, attempts: 4, retryInSeconds: 40 }],
    [
      "a refusal, the last one allowed",
      row("pending", MAX_FORWARD_ATTEMPTS - 1),
      "rejected",
      { hold: true, attempts: MAX_FORWARD_ATTEMPTS },
    ],
    // A forward with a transaction in flight keeps checking the chain: counted, capped, never held.
    [
      "a refusal while the sweep is in flight",
      row("sweep_sent", MAX_FORWARD_ATTEMPTS + 3),
      "rejected",
      { hold: false, attempts: MAX_FORWARD_ATTEMPTS + 4, retryInSeconds: 600 },
    ],
    ["a refusal while the top-up is in flight", row("gas_sent", 0), "rejected", { hold: false, attempts: 1, retryInSeconds: 5 }],
    [
      "a refusal while batched",
      row("batched", MAX_FORWARD_ATTEMPTS - 1),
      "rejected",
      { hold: false, attempts: MAX_FORWARD_ATTEMPTS, retryInSeconds: backoffSeconds(MAX_FORWARD_ATTEMPTS) },
    ],
  ] as const)("%s", (_name, forward, kind, expected) => {
    expect(decideFailure(forward, kind as RpcErrorKind)).toEqual(expected);
  });

  it("holds a pending forward only after MAX_FORWARD_ATTEMPTS real failures, however many transient ones came between", () => {
    let forward = row("pending", 0);
    const kinds: RpcErrorKind[] = [];
    for (let i = 0; i < 50; i++) kinds.push("transient", "rate-limited", "rejected");
    let real = 0;
    for (const kind of kinds) {
      const decision = decideFailure(forward, kind);
      if (kind === "rejected") real++;
      if (decision.hold) break;
      expect(decision.retryInSeconds).toBeLessThanOrEqual(600);
      forward = { ...forward, attempts: decision.attempts };
    }
    expect(real).toBe(MAX_FORWARD_ATTEMPTS);
  });

  it("backs off exponentially from 5 s, capped at 10 minutes", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map(backoffSeconds)).toEqual([5, 10, 20, 40, 80, 160, 320, 600, 600, 600]);
  });
});

describe("when a forward is due, and when a sleeping driver asks again", () => {
  const now = new Date("2026-11-24T12:00:00Z");
  const at = (s: number) => new Date(now.getTime() + s * 1000);

  it.each([
    ["long due", at(-600), true],
    ["due this very moment", at(0), true],
    ["due in a millisecond", new Date(now.getTime() + 1), false],
    ["backing off for 10 minutes", at(600), false],
  ] as const)("%s", (_name, nextAttemptAt, due) => {
    expect(isForwardDue({ nextAttemptAt }, now)).toBe(due);
  });

  it.each([
    ["when it is due", at(80), at(80)],
    ["in a second at the soonest (already due)", at(-30), at(1)],
    ["in a second at the soonest (unknown: another worker holds it)", null, at(1)],
    ["in 10 minutes at the latest", at(3600), at(600)],
  ] as const)("asks again %s", (_name, dueAt, expected) => {
    expect(askAgainAt(dueAt, now)).toEqual(expected);
  });
});
