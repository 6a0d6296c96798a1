/** Why a webhook tool (a test event, a redelivery) is refused (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const WEBHOOK_REASONS = [
  /** The domain has no webhook URL yet: nowhere to send a test event. */
  "webhook-url-missing",
  /** The delivery's endpoint was removed since (its domain's webhook URL was cleared). */
  "webhook-url-removed",
  "webhook-delivery-in-flight",
  "webhook-test-events-waiting",
] as const;
export type WebhookReason = (typeof WEBHOOK_REASONS)[number];

export const webhookRefusal: Refusal<WebhookReason> = refusal;
