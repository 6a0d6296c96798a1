/** The channels every event is offered to, in order. E-mail joins here (docs/design.md §28). */

import type { NotificationChannel } from "./channel";
import { webhookChannel } from "./webhook-channel";

export const CHANNELS: readonly NotificationChannel[] = [webhookChannel];

export function channelNamed(name: string): NotificationChannel | undefined {
  return CHANNELS.find((channel) => channel.name === name);
}
