import { log } from "../../base/log";
import type { Db } from "../../db";
import type { ChannelClaim } from "./channel";
import { attemptNotification, claimDueNotifications } from "./delivery";

/**
 * The embedded runner's sender of every channel's outbox: keeps up to `maxInFlight` deliveries going, and claims
 * the next ones as soon as one finishes rather than on the next tick, so a backlog drains at the
 * receivers' pace and a receiver that hangs only occupies its own slots.
 */
export class NotificationPump {
  private readonly running = new Set<Promise<void>>();
  private claiming = false;
  private claimAgain = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly maxInFlight = 32,
    /** How long a claimed delivery is leased (the dispatch job's declared lease); absent: dispatch.ts' default. */
    private readonly leaseMs?: number,
  ) {}

  get inFlight(): number {
    return this.running.size;
  }

  /** Claims what fits and starts it; returns how many were started. */
  async pump(): Promise<number> {
    if (this.claiming) {
      this.claimAgain = true;
      return 0;
    }
    this.claiming = true;
    let started = 0;
    try {
      do {
        this.claimAgain = false;
        const room = this.maxInFlight - this.running.size;
        if (room <= 0 || this.stopped) break;
        const claimed = await claimDueNotifications(this.db, room, { leaseMs: this.leaseMs });
        for (const claim of claimed) this.start(claim);
        started += claimed.length;
      } while (this.claimAgain);
    } finally {
      this.claiming = false;
    }
    return started;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.running]);
  }

  private start(claim: ChannelClaim): void {
    const { channel, deliveryId } = claim;
    const attempt: Promise<void> = attemptNotification(this.db, claim)
      .then(() => undefined)
      .catch((error: unknown) => {
        log.warn(
          { channel, deliveryId, err: error instanceof Error ? error.message : String(error) },
          "notification attempt not recorded; its lease brings it back",
        );
      })
      .finally(() => {
        this.running.delete(attempt);
        if (!this.stopped) this.pump().catch(() => {});
      });
    this.running.add(attempt);
  }
}
