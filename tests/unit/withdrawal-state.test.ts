import { describe, expect, it } from "vitest";
import { releasesIdempotencyKey, settleWithdrawal, type WithdrawalFacts } from "@/lib/withdrawals/withdrawal-state";

const facts = (overrides: Partial<WithdrawalFacts> = {}): WithdrawalFacts => ({
  nonce: 7,
  minedCount: 7,
  withdrawal: null,
  filler: null,
  hasFiller: false,
  requiredConfirmations: 3,
  broadcastError: null,
  ...overrides,
});
const mined = (success: boolean, confirmations: number) => ({ success, confirmations });

describe("settleWithdrawal: final only when the chain says which transaction used the nonce", () => {
  it.each([
    ["nothing mined, nonce free: send it (again)", facts(), { status: "submitted", next: "rebroadcast-withdrawal" }],
    ["refused, filler signed, nonce free: the filler is re-sent, still submitted", facts({ hasFiller: true, broadcastError: "rejected" }), { status: "submitted", next: "rebroadcast-filler" }],
    ["the withdrawal mined, not yet confirmed", facts({ minedCount: 8, withdrawal: mined(true, 2) }), { status: "submitted", next: "wait" }],
    ["the withdrawal mined and confirmed", facts({ minedCount: 8, withdrawal: mined(true, 3) }), { status: "completed" }],
    ["the withdrawal mined although it had been refused once (a mempool kept it)", facts({ minedCount: 8, hasFiller: true, withdrawal: mined(true, 5), broadcastError: "rejected" }), { status: "completed" }],
    ["the filler mined, not yet confirmed", facts({ minedCount: 8, hasFiller: true, filler: mined(true, 1) }), { status: "submitted", next: "wait" }],
  ] as const)("%s", (_name, input, expected) => {
    const settlement = settleWithdrawal(input);
    expect(settlement).toEqual(expected);
    expect(releasesIdempotencyKey(settlement)).toBe(false);
  });

  it.each([
    ["the filler took the nonce: nothing was sent", facts({ minedCount: 8, hasFiller: true, filler: mined(true, 3), broadcastError: "invalid sender" }), /the network refused the transaction \(invalid sender\); its nonce was filled.*nothing was sent/],
    ["the withdrawal reverted on chain", facts({ minedCount: 8, withdrawal: mined(false, 3) }), /reverted on chain; the tokens were not sent/],
    ["another transaction of the wallet took the nonce", facts({ minedCount: 9 }), /dropped: its nonce was used by another transaction/],
  ] as const)("fails, and frees the Idempotency-Key, when %s", (_name, input, reason) => {
    const settlement = settleWithdrawal(input);
    expect(settlement.status).toBe("failed");
    expect(settlement.status === "failed" && settlement.reason).toMatch(reason);
    expect(releasesIdempotencyKey(settlement)).toBe(true);
  });

  it("needs at least one confirmation even when CONFIRMATIONS is 0", () => {
    expect(settleWithdrawal(facts({ requiredConfirmations: 0, minedCount: 8, withdrawal: mined(true, 0) }))).toEqual({ status: "submitted", next: "wait" });
    expect(settleWithdrawal(facts({ requiredConfirmations: 0, minedCount: 8, withdrawal: mined(true, 1) }))).toEqual({ status: "completed" });
  });
});
