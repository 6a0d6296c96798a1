/**
 * One change feed per process for every open checkout page: a single query a tick reads all the
 * sessions being watched (and one block number per network), and each change is fanned out to
 * that session's listeners. A thousand open pages cost what one does; an idle process costs
 * nothing (the feed stops when nobody listens). A tick comes every CHECKOUT_REFRESH_MS (1 s), and
 * at once when a watched session is announced as changed (lib/domain/payments/session-changes.ts) by any
 * process.
 */

import { eq, inArray } from "drizzle-orm";
import { getConfig } from "../../base/config";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { paymentSessions, tokens } from "../../db/schema";
import { displayedConfirmations } from "../../engine/chain/confirmations";
import { networkConfig, publicClientFor } from "../../engine/chain/networks";
import { type CheckoutStatus, checkoutStatus } from "./checkout-view";

export type CheckoutEvent = { kind: "status"; data: CheckoutStatus & { head: number | null } } | { kind: "not-found" };
type Listener = (event: CheckoutEvent) => void;
/** Starts listening for announced session changes; resolves to the function that stops it. */
export type ChangeSource = (onChange: (sessionIds: string[]) => void) => Promise<() => Promise<void>>;

const CHUNK = 1000;

export class CheckoutHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly last = new Map<string, CheckoutEvent>();
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;
  private ticking = false;
  /** A read was asked for while one ran: it may have read too early, so another follows at once. */
  private tickAgain = false;
  /** Database queries and ticks since start: what the benchmark prints. */
  readonly stats = { ticks: 0, queries: 0, headReads: 0 };

  private unlisten: Promise<(() => Promise<void>) | null> | null = null;

  constructor(
    private readonly db: () => Promise<Db>,
    private readonly intervalMs = 1000,
    private readonly changes?: ChangeSource,
  ) {}

  subscribe(sessionId: string, listener: Listener): () => void {
    const set = this.listeners.get(sessionId) ?? new Set();
    set.add(listener);
    this.listeners.set(sessionId, set);
    const known = this.last.get(sessionId);
    if (known) listener(known);
    else this.tickSoon(); // a burst of new pages is read in one query, a few ms later
    if (!this.timer) {
      this.timer = setInterval(() => void this.tick(), this.intervalMs);
      this.listenForChanges();
    }
    return () => {
      set.delete(listener);
      if (set.size === 0) {
        this.listeners.delete(sessionId);
        this.last.delete(sessionId);
      }
      if (this.listeners.size === 0) this.stop();
    };
  }

  get watching(): number {
    return this.listeners.size;
  }

  stop(): void {
    const unlisten = this.unlisten;
    this.unlisten = null;
    void unlisten?.then((stop) => stop?.()).catch(() => undefined);
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.timer = null;
    this.soon = null;
  }

  /** An announced change of a watched session brings the next tick forward; without a source the ticks alone serve. */
  private listenForChanges(): void {
    if (!this.changes || this.unlisten !== null) return;
    this.unlisten = this.changes((ids) => {
      if (ids.some((id) => this.listeners.has(id))) this.tickSoon();
    }).catch((error: unknown) => {
      log.warn({ err: error }, "cannot listen for session changes; checkout pages update every second");
      return null;
    });
  }

  private tickSoon(): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      void this.tick();
    }, 25);
  }

  async tick(now = new Date()): Promise<void> {
    if (this.listeners.size === 0) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    try {
      this.stats.ticks++;
      const db = await this.db();
      const ids = [...this.listeners.keys()];
      const rows = [];
      for (let i = 0; i < ids.length; i += CHUNK) {
        this.stats.queries++;
        rows.push(
          ...(await db
            .select({ session: paymentSessions, decimals: tokens.decimals })
            .from(paymentSessions)
            .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
            .where(inArray(paymentSessions.id, ids.slice(i, i + CHUNK)))),
        );
      }
      const heads = await this.heads([...new Set(rows.filter((r) => r.session.status === "pending").map((r) => r.session.network))]);
      const byId = new Map(rows.map((r) => [r.session.id, r]));
      for (const id of ids) {
        const row = byId.get(id);
        const event: CheckoutEvent = row
          ? {
              kind: "status",
              data: {
                ...checkoutStatus(row.session, row, confirmationsShown(row.session.network), now),
                head: heads.get(row.session.network) ?? null,
              },
            }
          : { kind: "not-found" };
        const previous = this.last.get(id);
        if (previous && JSON.stringify(previous) === JSON.stringify(event)) continue;
        this.last.set(id, event);
        for (const listener of this.listeners.get(id) ?? []) listener(event);
      }
    } catch (error) {
      log.warn({ err: error }, "checkout feed tick failed; retrying next tick");
    } finally {
      this.ticking = false;
      if (this.tickAgain) {
        this.tickAgain = false;
        this.tickSoon();
      }
    }
  }

  private async heads(networks: string[]): Promise<Map<string, number>> {
    const heads = new Map<string, number>();
    await Promise.all(
      networks.map(async (network) => {
        if (!networkConfig(network)) return;
        this.stats.headReads++;
        const head = await publicClientFor(network)
          .getBlockNumber({ cacheTime: 0 })
          .catch(() => null);
        if (head !== null) heads.set(network, Number(head));
      }),
    );
    return heads;
  }
}

const HUB_KEY = Symbol.for("bsc-pay.checkout-hub");
type Holder = { [HUB_KEY]?: CheckoutHub };

export function checkoutHub(db: () => Promise<Db>, changes?: ChangeSource): CheckoutHub {
  const holder = globalThis as Holder;
  holder[HUB_KEY] ??= new CheckoutHub(db, getConfig().checkoutRefreshMs, changes);
  return holder[HUB_KEY];
}

/** Tests start from a fresh feed. */
export function resetCheckoutHub(): void {
  const holder = globalThis as Holder;
  holder[HUB_KEY]?.stop();
  delete holder[HUB_KEY];
}

function confirmationsShown(network: string): number {
  const config = networkConfig(network);
  return config ? displayedConfirmations(config.finality) : 1;
}
