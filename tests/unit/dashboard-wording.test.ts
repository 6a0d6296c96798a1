import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ForwardProblem } from "@/components/payments/forward-problem";
import { GAS_SPEND_KINDS } from "@/lib/domain/gas/spend";
import {
  accountName,
  balanceLabel,
  GAS_SPEND_LABELS,
  networkLabel,
  networkMode,
  orderLabel,
  statusLabel,
  statusTone,
} from "@/lib/web/dashboard/shared/wording";

/** A network's id or an engine term: what a merchant's page never shows. */
const ENGINE_WORDS = /\b(bsc|bsc-testnet|local)\b|\b(sweeps?|batch(ed)?|forwards?|replacements?)\b|_/;
const visibleText = (html: string) => html.replace(/<[^>]*>/g, " ");

/** The merchant's words for the engine's names . */
describe("dashboard wording", () => {
  it("names an account as an account, not as its owner's bare e-mail", () => {
    expect(accountName("ana@shop.example")).toBe("ana@shop.example's account");
  });

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

  it("labels balances with the network's name when there are several, never its id", () => {
    expect(balanceLabel("BNB", "local", ["local"])).toBe("BNB");
    expect(balanceLabel("BNB", "bsc-testnet", ["bsc", "bsc-testnet"])).toBe("BNB (BSC Testnet)");
    expect(balanceLabel("USDT", "local", ["bsc", "local"])).toBe("USDT (Local test chain)");
    for (const n of ["bsc", "bsc-testnet", "local"])
      expect(balanceLabel("BNB", n, ["bsc", "bsc-testnet", "local"])).not.toMatch(ENGINE_WORDS);
  });

  it("says what gas paid for in the merchant's words, for every kind of spend", () => {
    expect(Object.keys(GAS_SPEND_LABELS).sort()).toEqual([...GAS_SPEND_KINDS].sort());
    expect(GAS_SPEND_LABELS).toEqual({
      sweep: "Forwarding payments",
      batch: "Forwarding in groups",
      withdrawal: "Withdrawals",
      replacement: "Speed-ups",
    });
    for (const label of Object.values(GAS_SPEND_LABELS)) expect(label).not.toMatch(/sweep|batch|replacement|gas/i);
  });

  it("explains a held or retried forward in plain words, the engine's reason folded under 'Technical details'", () => {
    const held = renderToStaticMarkup(
      createElement(ForwardProblem, { heldReason: "batch 0xabc reverted; sweeping it the classic way", lastError: "x" }),
    );
    expect(held).toMatch(/<p class="text-destructive">On hold: it could not be sent to your wallet automatically\./);
    expect(held).toMatch(/<details[^>]*><summary[^>]*>Technical details<\/summary><p[^>]*>batch 0xabc reverted/);
    const retried = renderToStaticMarkup(createElement(ForwardProblem, { heldReason: null, lastError: "gas tank low" }));
    expect(retried).toContain("The last attempt to send it did not go through; it is tried again automatically.");
    expect(visibleText(retried.replace(/<details.*<\/details>/, ""))).not.toMatch(ENGINE_WORDS);
    expect(renderToStaticMarkup(createElement(ForwardProblem, { heldReason: null, lastError: null }))).toBe("");
  });
});
