import { describe, expect, it } from "vitest";
import { approvalNote, heldBackNote } from "@/lib/web/dashboard/withdrawals/send-words";

/** The withdrawal confirmation says when a send will wait for approval, by the send's own rule. */
describe("approvalNote", () => {
  const none = { perRequest: null, leftToday: null };
  it("says nothing without thresholds, or before the amount is one", () => {
    expect(approvalNote("20", 18, "DUSD", none)).toBeNull();
    expect(approvalNote("20", 18, "DUSD", null)).toBeNull();
    expect(approvalNote("abc", 18, "DUSD", { perRequest: "5", leftToday: null })).toBeNull();
  });

  it("above the per-request threshold: needs approval; at it: sent at once", () => {
    const policy = { perRequest: "5", leftToday: null };
    expect(approvalNote("5.000000000000000001", 18, "DUSD", policy)).toBe("Needs approval (above 5 DUSD)");
    expect(approvalNote(" 20 ", 18, "DUSD", policy)).toBe("Needs approval (above 5 DUSD)");
    expect(approvalNote("5", 18, "DUSD", policy)).toBeNull();
  });

  it("above what is left of today's limit: needs approval, nothing left meaning any amount", () => {
    expect(approvalNote("30", 6, "USDT", { perRequest: "100", leftToday: "25" })).toBe(
      "Needs approval (above the 25 USDT left of today's limit)",
    );
    expect(approvalNote("25", 6, "USDT", { perRequest: "100", leftToday: "25" })).toBeNull();
    expect(approvalNote("0.01", 6, "USDT", { perRequest: null, leftToday: "0" })).toBe(
      "Needs approval (above the 0 USDT left of today's limit)",
    );
  });
});

describe("heldBackNote", () => {
  it("says what Available leaves out: unmined sends and what waits for approval", () => {
    expect(heldBackNote("0", "0", "DUSD")).toBeNull();
    expect(heldBackNote("2", "0", "DUSD")).toBe(" (2 DUSD reserved by sends not yet mined)");
    expect(heldBackNote("0", "20", "DUSD")).toBe(" (20 DUSD waiting for approval)");
    expect(heldBackNote("2", "20", "DUSD")).toBe(" (2 DUSD reserved by sends not yet mined; 20 DUSD waiting for approval)");
  });
});
