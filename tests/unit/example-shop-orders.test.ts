import type { WebhookEvent } from "@bsc-pay/sdk";
import { describe, expect, it } from "vitest";
import { type Order, orderChange } from "../../examples/shop/orders.ts";

/** The example shop's rule for what a verified event does to an order (examples/shop/orders.ts). */
const order = (status: Order["status"]): Order => ({
  id: "ORD-0123456789",
  product: "Flat white",
  amount: "3.5",
  token: "DUSD",
  status,
  sessionId: "7b0c4c8e-2f7e-4a53-9c55-0d3c0f6c9a11",
  createdAt: "2026-11-28T10:00:00.000Z",
  paidAt: null,
  txHash: null,
  paidByEvent: null,
});
const event = (type: string, data: Record<string, unknown> = {}) =>
  ({
    type,
    timestamp: "2026-11-28T10:05:00.000Z",
    data: {
      sessionId: "7b0c4c8e-2f7e-4a53-9c55-0d3c0f6c9a11",
      orderId: "ORD-0123456789",
      amount: "3.5",
      token: "DUSD",
      txHash: "0xabc",
      ...data,
    },
  }) as unknown as WebhookEvent;

describe("example shop: orderChange", () => {
  it("marks a waiting order paid from payment.completed, with the event and the transaction", () => {
    expect(orderChange(order("awaiting_payment"), event("payment.completed"), "msg_1")).toMatchObject({
      status: "paid",
      txHash: "0xabc",
      paidByEvent: "msg_1",
    });
  });

  it("still marks an order paid after its expiry or cancel: a transfer mined in time counts", () => {
    for (const status of ["expired", "cancelled"] as const) {
      expect(orderChange(order(status), event("payment.completed"), "msg_2")).toMatchObject({ status: "paid" });
    }
  });

  it("never pays an order for another session, amount or token, nor twice", () => {
    expect(orderChange(order("awaiting_payment"), event("payment.completed", { sessionId: "another" }), "m")).toBeNull();
    expect(orderChange(order("awaiting_payment"), event("payment.completed", { amount: "0.35" }), "m")).toBeNull();
    expect(orderChange(order("awaiting_payment"), event("payment.completed", { token: "USDT" }), "m")).toBeNull();
    expect(orderChange(order("paid"), event("payment.completed"), "m")).toBeNull();
  });

  it("closes only a waiting order on expiry or cancel, and ignores other events", () => {
    expect(orderChange(order("awaiting_payment"), event("payment.expired"), "m")).toEqual({ status: "expired" });
    expect(orderChange(order("awaiting_payment"), event("payment.cancelled"), "m")).toEqual({ status: "cancelled" });
    expect(orderChange(order("paid"), event("payment.expired"), "m")).toBeNull();
    expect(orderChange(order("awaiting_payment"), event("payment.partial"), "m")).toBeNull();
    expect(orderChange(order("awaiting_payment"), event("refund.completed"), "m")).toBeNull();
  });
});
