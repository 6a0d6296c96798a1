/**
 * The shop's orders, kept in a JSON file so a restart loses nothing. A real shop has its database;
 * what matters is the same: the order exists before the payment, and only a verified webhook (or
 * the API) marks it paid, once.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

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
    const order: Order = {
      id: `ORD-${randomUUID().slice(0, 8).toUpperCase()}`,
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
