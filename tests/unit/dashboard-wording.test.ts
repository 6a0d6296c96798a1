import { describe, expect, it } from "vitest";
import { networkLabel, networkMode, orderLabel, statusLabel, statusTone } from "@/lib/dashboard/wording";

/** The merchant's words for the engine's names (issue 24 §6, §8, §9). */
describe("dashboard wording", () => {
  it("names networks for people", () => {
    expect(["bsc", "bsc-testnet", "local"].map(networkLabel)).toEqual(["BNB Smart Chain", "BSC Testnet", "Local test chain"]);
  });

  it("is in test mode when a network's tokens are worth nothing", () => {
    expect(networkMode(["bsc"])).toEqual({ label: "BNB Smart Chain", shortLabel: "BSC", testMode: "none", testNetworks: [] });
    expect(networkMode(["local"])).toMatchObject({ label: "Local test chain", testMode: "all" });
    expect(networkMode(["bsc-testnet"])).toMatchObject({ testMode: "all" });
    expect(networkMode(["bsc", "local"])).toEqual({
      label: "BNB Smart Chain · Local test chain",
      shortLabel: "BSC · Local chain",
      testMode: "some",
      testNetworks: ["Local test chain"],
    });
  });

  it("capitalises statuses and never shows an engine term", () => {
    expect(["pending", "completed", "expired", "cancelled"].map((s) => statusLabel("payment", s))).toEqual([
      "Pending",
      "Completed",
      "Expired",
      "Cancelled",
    ]);
    const forward = ["pending", "gas_sent", "sweep_sent", "batched", "completed", "held"].map((s) => statusLabel("forward", s));
    expect(forward).toEqual([
      "Waiting to send",
      "Preparing the transfer",
      "Sending to your wallet",
      "Sending to your wallet",
      "Sent to your wallet",
      "On hold",
    ]);
    for (const label of forward) expect(label).not.toMatch(/_|sweep|batch|gas/i);
    expect(statusLabel("withdrawal", "submitted")).toBe("Sending");
    expect(statusLabel("payment", "some_new_state")).toBe("Some new state");
    expect(["completed", "pending", "held", "expired"].map(statusTone)).toEqual(["success", "warning", "danger", "neutral"]);
  });

  it("labels a payment's order: orderId, else description, else the first metadata entry", () => {
    const none = { orderId: null, description: null, metadata: null };
    expect(orderLabel({ ...none, orderId: "ORD-1", description: "Coffee" })).toEqual({ text: "ORD-1", kind: "orderId" });
    expect(orderLabel({ ...none, description: "2 × Flat white\nTo take away" })).toEqual({ text: "2 × Flat white", kind: "description" });
    expect(orderLabel({ ...none, metadata: { cart: null, order: "A-1", x: 2 } })).toEqual({ text: "order=A-1", kind: "metadata" });
    expect(orderLabel({ ...none, metadata: { items: [1, 2] } })?.text).toBe("items=[1,2]");
    expect(orderLabel({ ...none, metadata: { note: "y".repeat(80) } })?.text).toHaveLength("note=".length + 40);
    expect(orderLabel(none)).toBeNull();
    expect(orderLabel({ ...none, metadata: {} })).toBeNull();
  });
});
