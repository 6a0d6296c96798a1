/**
 * An account's audit log, newest first, by keyset on `(at, id)` (docs/design.md §25): every filter
 * combination starts from an index that begins with the account (drizzle/0040_audit_events.sql), a
 * deep page costs what the first does, and nothing counts the history. Another account's rows are
 * never read: the account is the first condition of every query.
 */

import { and, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Db } from "../../db";
import { type KeysetPage, keysetBounds, reachedNewest } from "../../db/keyset";
import { type AuditEvent, auditEvents } from "../../db/schema";
import type { AuditAction } from "./actions";
import type { AuditActorKind } from "./actor";

export interface AuditFilters {
  action?: AuditAction;
  actorUserId?: number;
  actorApiKeyId?: number;
  /** Only rows by this kind of actor ("system": the service's own). */
  actorKind?: AuditActorKind;
  /** From this instant, inclusive. */
  from?: Date;
  /** Before this instant, exclusive. */
  to?: Date;
}

export interface AuditPageQuery extends AuditFilters {
  limit: number;
  /** The page of rows older than this cursor (a page's `older`, the API's `nextCursor`). */
  after?: string;
  /** The page of rows newer than this cursor (a page's `newer`). */
  before?: string;
}

export interface AuditEventView {
  id: number;
  at: string;
  actor: { kind: AuditActorKind; userId?: number; apiKeyId?: number; label: string };
  address: string | null;
  action: string;
  target: { type: string; id: string } | null;
  before: unknown;
  after: unknown;
}

export function toAuditView(row: AuditEvent): AuditEventView {
  const kind = row.actorKind as AuditActorKind;
  const actor: AuditEventView["actor"] =
    kind === "user" && row.actorUserId !== null
      ? { kind, userId: row.actorUserId, label: row.actorLabel }
      : kind === "api_key" && row.actorApiKeyId !== null
        ? { kind, apiKeyId: row.actorApiKeyId, label: row.actorLabel }
        : { kind, label: row.actorLabel };
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor,
    address: row.address,
    action: row.action,
    target: row.targetType !== null ? { type: row.targetType, id: row.targetId ?? "" } : null,
    before: row.before ?? null,
    after: row.after ?? null,
  };
}

/** The conditions of `filters` for `accountId`, the account first. */
export function auditWhere(accountId: number, filters: AuditFilters): SQL | undefined {
  return and(
    eq(auditEvents.accountId, accountId),
    filters.action ? eq(auditEvents.action, filters.action) : undefined,
    filters.actorUserId !== undefined ? eq(auditEvents.actorUserId, filters.actorUserId) : undefined,
    filters.actorApiKeyId !== undefined ? eq(auditEvents.actorApiKeyId, filters.actorApiKeyId) : undefined,
    filters.actorKind ? eq(auditEvents.actorKind, filters.actorKind) : undefined,
    filters.from ? gte(auditEvents.at, filters.from) : undefined,
    filters.to ? lt(auditEvents.at, filters.to) : undefined,
  );
}

/**
 * One page with cursors both ways (the dashboard's Older/Newer). A cursor we did not hand out is a
 * VALIDATION_ERROR before anything is read. Newer from a page whose rows arrived in between comes
 * back short: the newest full page is shown instead.
 */
export async function auditPage(db: Db, accountId: number, query: AuditPageQuery): Promise<KeysetPage<AuditEventView>> {
  const page = await readPage(db, accountId, query);
  const shown = reachedNewest(query, page) ? await readPage(db, accountId, { ...query, after: undefined, before: undefined }) : page;
  return { ...shown, items: shown.items.map((r) => toAuditView(r.event)) };
}

async function readPage(db: Db, accountId: number, query: AuditPageQuery) {
  const keyset = keysetBounds({ createdAt: auditEvents.at, id: auditEvents.id }, query, "integer");
  const rows = await db
    .select({ event: auditEvents, cursorTime: keyset.cursorTime })
    .from(auditEvents)
    .where(and(auditWhere(accountId, query), keyset.where))
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
  return keyset.pageOf(rows, (row) => ({ createdAt: row.cursorTime, id: String(row.event.id) }));
}

export interface AuditListQuery extends AuditFilters {
  /** Empty or absent: the newest page; else the `nextCursor` of the page before. */
  cursor?: string;
  limit: number;
}

/** `GET /api/user/audit`: `{items, nextCursor}`, newest first; `nextCursor` null on the oldest page. */
export async function listAudit(
  db: Db,
  accountId: number,
  query: AuditListQuery,
): Promise<{ items: AuditEventView[]; nextCursor: string | null }> {
  const { cursor, ...rest } = query;
  const page = await auditPage(db, accountId, { ...rest, after: cursor || undefined });
  return { items: page.items, nextCursor: page.older };
}
