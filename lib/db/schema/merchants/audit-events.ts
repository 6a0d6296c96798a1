import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "../columns";
import { users } from "./users";

/**
 * The audit log (docs/design.md §24): one row per thing a member, an API key or the service did to an
 * account. Append-only: a trigger (drizzle/0040_audit_events.sql) refuses UPDATE, DELETE and
 * TRUNCATE. Written by lib/accounts/audit only.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** The account acted on (users.id of its founding user). RESTRICT: an account with a history is never deleted with it. */
    accountId: integer("account_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    at: timestamptz("at").notNull().defaultNow(),
    /** "user" | "api_key" | "system" (lib/accounts/audit/actor.ts). */
    actorKind: text("actor_kind").notNull(),
    /** The member who acted; no foreign key, so the row outlives the member. */
    actorUserId: integer("actor_user_id"),
    /** The API key that acted; no foreign key, so the row outlives the key. */
    actorApiKeyId: integer("actor_api_key_id"),
    /** The member's email or the key's name and prefix at the time, copied. */
    actorLabel: text("actor_label").notNull(),
    /** The client's IP address, when a request carried one. */
    address: text("address"),
    /** A dotted name of AUDIT_ACTIONS (lib/accounts/audit/actions.ts). */
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    /** What changed, before and after; secrets are stripped before they are written. */
    before: jsonb("before"),
    after: jsonb("after"),
  },
  (t) => [
    check("audit_events_actor_kind_check", sql`${t.actorKind} in ('user', 'api_key', 'system')`),
    index("audit_events_account_at_idx").on(t.accountId, t.at.desc(), t.id.desc()),
    index("audit_events_account_action_at_idx").on(t.accountId, t.action, t.at.desc(), t.id.desc()),
    index("audit_events_account_actor_user_at_idx")
      .on(t.accountId, t.actorUserId, t.at.desc(), t.id.desc())
      .where(sql`${t.actorUserId} is not null`),
    index("audit_events_account_actor_key_at_idx")
      .on(t.accountId, t.actorApiKeyId, t.at.desc(), t.id.desc())
      .where(sql`${t.actorApiKeyId} is not null`),
  ],
);

export type AuditEvent = typeof auditEvents.$inferSelect;
export type NewAuditEvent = typeof auditEvents.$inferInsert;
