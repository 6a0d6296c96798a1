import type { components } from "./generated/openapi.js";

type Provisional = { type: string; timestamp: string; data: Record<string, any> };
/** Every event BSC Pay sends, discriminated on `type`: `switch (event.type)` narrows `event.data`. */
export type WebhookEvent = components["schemas"] extends { WebhookEvent: infer E } ? E : Provisional;
export type WebhookEventType = WebhookEvent["type"];
/** The event of one type, e.g. `WebhookEventOf<"payment.completed">`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
