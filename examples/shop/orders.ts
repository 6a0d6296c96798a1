/**
 * The shop's orders, kept in a JSON file so a restart loses nothing. A real shop has its database;
 * what matters is the same: the order exists before the payment, and only a verified webhook (or
 * the API) marks it paid, once.
 */

import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { WebhookEvent } from "@bsc-pay/sdk";

export type OrderStatus = "awaiting_payment" | "paid" | "expired" | "cancelled";

export interface Order {
  id: string;
  product: string;
  /** Decimal string in whole tokens: never a float. */
  amount: string;
  token: string;
  status: OrderStatus;
  sessionId: string | null;
  createdAt: string;
  paidAt: string | null;
  txHash: string | null;
  /** The webhook-id that marked it paid (deliveries are retried with the same id). */
  paidByEvent: string | null;
}

interface Stored {
  orders: Record<string, Order>;
  /** webhook-ids already handled, newest last (a bounded list). */
  events: string[];
}

const MAX_REMEMBERED_EVENTS = 10_000;

export class OrderBook {
  private data: Stored;
  private readonly file: string;

  constructor(file: string) {
    this.file = file;
    this.data = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Stored) : { orders: {}, events: [] };
  }

  create(product: string, amount: string, token: string): Order {
    let id: string;
    do id = `ORD-${randomBytes(5).toString("hex").toUpperCase()}`;
    while (this.get(id)); // the id is also the payment's Idempotency-Key: never two orders with one
    const order: Order = {
      id,
      product,
      amount,
      token,
      status: "awaiting_payment",
      sessionId: null,
      createdAt: new Date().toISOString(),
      paidAt: null,
      txHash: null,
      paidByEvent: null,
    };
    this.data.orders[order.id] = order;
    this.save();
    return order;
  }

  get(id: string): Order | undefined {
    return Object.hasOwn(this.data.orders, id) ? this.data.orders[id] : undefined;
  }

  update(id: string, change: Partial<Order>): Order {
    const order = this.get(id);
    if (!order) throw new Error(`no order ${id}`);
    Object.assign(order, change);
    this.save();
    return order;
  }

  /** Whether this webhook-id was handled before (a retry of a delivery that did reach us). */
  handled(eventId: string): boolean {
    return this.data.events.includes(eventId);
  }

  /** Records a webhook-id once its event is fully handled: one that failed halfway is handled again. */
  remember(eventId: string): void {
    this.data.events = [...this.data.events, eventId].slice(-MAX_REMEMBERED_EVENTS);
    this.save();
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.data, null, 2));
    renameSync(temporary, this.file); // never a half-written file after a crash
  }
}

/**
 * What a verified event changes in its order, if anything. A payment completes an order that is
 * not paid yet — even one already marked expired or cancelled: a transfer mined in time still
 * counts, and BSC Pay then sends `payment.completed` after `payment.expired`. The session, amount
 * and token must be the order's; an expiry or a cancel only closes an order still waiting.
 */
export function orderChange(order: Order, event: WebhookEvent, eventId: string): Partial<Order> | null {
  if (event.type !== "payment.completed" && event.type !== "payment.expired" && event.type !== "payment.cancelled") return null;
  if (event.data.sessionId !== order.sessionId) return null;
  if (event.type === "payment.completed") {
    if (order.status === "paid" || event.data.amount !== order.amount || event.data.token !== order.token) return null;
    return { status: "paid", paidAt: new Date().toISOString(), txHash: event.data.txHash, paidByEvent: eventId };
  }
  if (order.status !== "awaiting_payment") return null;
  return { status: event.type === "payment.expired" ? "expired" : "cancelled" };
}
