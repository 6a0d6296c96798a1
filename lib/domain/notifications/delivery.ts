/**
 * Delivering every channel's outbox, on either driver: claims are leased before anything is sent
 * and outcomes recorded after, so a crash anywhere in between leaves a row pending and it is sent
 * again once its lease runs out (at least once, never lost). Receivers deduplicate on the event id.
 */

import { log } from "../../base/log";
import type { Db } from "../../db";
import type { AttemptOutcome, ChannelClaim } from "./channel";
import { CHANNELS, channelNamed } from "./channels";

/** Leases up to `limit` due rows, channel after channel. */
export async function claimDueNotifications(db: Db, limit: number, options: { leaseMs?: number } = {}): Promise<ChannelClaim[]> {
  const claimed: ChannelClaim[] = [];
  for (const channel of CHANNELS) {
    if (claimed.length >= limit) break;
    claimed.push(...(await channel.claimDue(db, limit - claimed.length, options)));
  }
  return claimed;
}

/** One attempt of a claim, by its channel (a claim of a channel this build does not know is skipped; its lease brings it back). */
export async function attemptNotification(db: Db, claim: ChannelClaim, options: { timeoutMs?: number } = {}): Promise<AttemptOutcome> {
  const channel = channelNamed(claim.channel);
  if (!channel) {
    log.warn({ channel: claim.channel, deliveryId: claim.deliveryId }, "a claim of an unknown notification channel was skipped");
    return "skipped";
  }
  return channel.attempt(db, claim, options);
}

/** Claims what is due and delivers it, `concurrency` at a time (tests and one-off drains). */
export async function deliverDueNotifications(
  db: Db,
  options: { limit?: number; concurrency?: number; timeoutMs?: number; leaseMs?: number } = {},
): Promise<{ claimed: number; delivered: number }> {
  const claimed = await claimDueNotifications(db, options.limit ?? 100, { leaseMs: options.leaseMs });
  let delivered = 0;
  const queue = [...claimed];
  const workers = Array.from({ length: Math.min(options.concurrency ?? 16, claimed.length) }, async () => {
    for (let claim = queue.shift(); claim !== undefined; claim = queue.shift()) {
      const outcome = await attemptNotification(db, claim, { timeoutMs: options.timeoutMs }).catch((error: unknown) => {
        log.warn(
          { channel: claim.channel, deliveryId: claim.deliveryId, err: error instanceof Error ? error.message : String(error) },
          "notification attempt not recorded; the lease will bring it back",
        );
        return "skipped" as const;
      });
      if (outcome === "delivered") delivered++;
    }
  });
  await Promise.all(workers);
  return { claimed: claimed.length, delivered };
}
