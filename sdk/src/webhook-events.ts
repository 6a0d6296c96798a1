import type { components } from "./generated/openapi.js";

/**
 * Every event BSC Pay sends (the `webhooks` of the OpenAPI document), discriminated on `type`:
 * `if (event.type === "payment.completed")` narrows `event.data` to the payment's.
 */
export type WebhookEvent = components["schemas"]["WebhookEvent"];
export type WebhookEventType = WebhookEvent["type"];
/** The event of one type, e.g. `WebhookEventOf<"payment.completed">`. */
export type WebhookEventOf<T extends WebhookEventType> = WebhookEvent extends infer E
  ? E extends { type: infer Types }
    ? T extends Types
      ? Omit<E, "type"> & { type: T }
      : never
    : never
  : never;
