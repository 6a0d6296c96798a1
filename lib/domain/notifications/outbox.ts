/**
 * The one way an area tells the merchant something: `notify` in the transaction that makes the
 * change. Both commit or neither does, so no event is lost and none is invented. Every channel is
 * offered every event; a domain nobody listens to on any channel gets nothing written.
 */

import type { Db } from "../../db";
import type { ChannelAudience } from "./channel";
import { CHANNELS } from "./channels";
import type { NotificationEvent } from "./events";

/** Who listens among some domains, on every channel: asked once, so a caller builds an event's data only when someone will read it. */
export interface Audience {
  listens(domainId: number | null): boolean;
  readonly channels: readonly ChannelAudience[];
}

export async function audienceOf(tx: Db, domainIds: readonly (number | null)[]): Promise<Audience> {
  const ids = [...new Set(domainIds.filter((id): id is number => id !== null))];
  const channels = ids.length === 0 ? [] : await Promise.all(CHANNELS.map((channel) => channel.audience(tx, ids)));
  return { channels, listens: (domainId) => domainId !== null && channels.some((c) => c.listens(domainId)) };
}

/**
 * Writes the events to every channel's receivers of their domains (in `tx`); returns how many rows
 * were written. Pass the audience a caller already asked for (of the same domains), or it is asked here.
 */
export async function notify(tx: Db, events: readonly NotificationEvent[], now = new Date(), known?: Audience): Promise<number> {
  if (events.length === 0) return 0;
  const audience =
    known ??
    (await audienceOf(
      tx,
      events.map((e) => e.domainId),
    ));
  let written = 0;
  for (const channel of audience.channels) written += await channel.write(tx, events, now);
  return written;
}
