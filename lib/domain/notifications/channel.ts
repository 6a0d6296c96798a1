/**
 * A channel carries events to the merchant's receivers: it says who listens per domain, writes
 * one row per event and receiver into its own outbox table in the caller's transaction, and later
 * delivers them — claimed under a lease, at least once, retried on its schedule. The webhook
 * channel is the first (channels.ts); a new way to tell a merchant is a new channel, not a copy.
 */

import type { Db } from "../../db";
import type { NotificationEvent } from "./events";

export type AttemptOutcome = "delivered" | "retrying" | "failed" | "skipped";

/** A claimed row of a channel's outbox: only the holder of `lease` (its end, ISO) may send it and record the attempt. */
export interface ChannelClaim {
  channel: ChannelName;
  /** The row of the channel's outbox. */
  deliveryId: number;
  /** Its receiver (a webhook endpoint): deliveries are limited per receiver, so a slow one only slows itself. */
  endpointId: number;
  lease: string;
}

export type ChannelName = "webhook";

/** Who listens on a channel among some domains, and how to write events to them. */
export interface ChannelAudience {
  listens(domainId: number): boolean;
  /** Writes the events whose domain listens (in the caller's transaction); returns how many rows it wrote. */
  write(tx: Db, events: readonly NotificationEvent[], now: Date): Promise<number>;
}

export interface NotificationChannel {
  readonly name: ChannelName;
  /** Who listens on this channel among these domains (a webhook endpoint each, say). */
  audience(tx: Db, domainIds: readonly number[]): Promise<ChannelAudience>;
  /** Leases up to `limit` rows that are due, fairly across receivers and merchants. */
  claimDue(db: Db, limit: number, options: { leaseMs?: number }): Promise<ChannelClaim[]>;
  /** One attempt of a claimed row, its outcome recorded; nothing when the claim is no longer this one. */
  attempt(db: Db, claim: ChannelClaim, options?: { timeoutMs?: number }): Promise<AttemptOutcome>;
}
