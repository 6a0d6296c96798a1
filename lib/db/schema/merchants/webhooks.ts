import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "../columns";
import { domains } from "./domains";
import { users } from "./users";

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    domainId: integer("domain_id").references(() => domains.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Standard Webhooks signing secret ("whsec_…"); it must be readable to sign, shown to its owner only. */
    secret: text("secret").notNull(),
    /** After a rotation, the old secret signs too (a second signature) until this expires. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: timestamptz("previous_secret_expires_at"),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId), uniqueIndex("webhook_endpoints_domain_unique").on(t.domainId)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** Stable per event and endpoint (the webhook-id header): retries reuse it. */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The exact JSON body `{type, timestamp, data}` (text, so every retry sends the same bytes). */
    payload: text("payload").notNull(),
    /** The session or withdrawal the event is about: one endpoint gets them in order per record. */
    orderKey: text("order_key").notNull().default(""),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at").notNull().defaultNow(),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastAttemptAt: timestamptz("last_attempt_at"),
    /** A worker's claim while it sends; another worker skips it until then. */
    lockedUntil: timestamptz("locked_until"),
    deliveredAt: timestamptz("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_unique").on(t.endpointId, t.eventId),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_order_idx").on(t.endpointId, t.orderKey, t.id).where(sql`${t.status} = 'pending'`),
    // The dashboard's list, paged by keyset on (created_at, id).
    index("webhook_deliveries_endpoint_created_id_idx").on(t.endpointId, t.createdAt, t.id),
    // A payment's page lists its events (and its refunds') by their order key.
    index("webhook_deliveries_order_key_idx").on(t.orderKey),
    // /api/health counts what is not delivered on every call: keep it off the (growing) delivered rows.
    index("webhook_deliveries_open_idx").on(t.status).where(sql`${t.status} <> 'delivered'`),
  ],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
