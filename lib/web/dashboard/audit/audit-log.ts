/**
 * The dashboard's audit log (docs/design.md §24): a page of events with the filter choices the page
 * offers, and the CSV export — every event the filters match, newest first, streamed in keyset
 * batches on the account's index; the before/after columns hold the JSON as recorded (secrets were
 * never stored, lib/accounts/audit/redact.ts), formula starts neutralised like every export.
 */

import { and, desc, type SQL, sql } from "drizzle-orm";
import { listApiKeys } from "../../../accounts/api-keys/manage-api-keys";
import type { AuditFilters } from "../../../accounts/audit/list-audit";
import { auditPage, auditWhere, toAuditView } from "../../../accounts/audit/list-audit";
import { listMembers } from "../../../accounts/members/manage-members";
import { KEYSET_TIME_FORMAT } from "../../../base/cursor";
import { type Db, getDb } from "../../../db";
import { auditEvents } from "../../../db/schema";
import { csvLine } from "../shared/csv";
import { auditNames } from "./audit-names";
import { auditSentence } from "./audit-sentences";

export const AUDIT_PAGE_SIZE = 25;

/** Whom the page's actor filter offers: the account's members its API keys, the service. */
export async function auditActorChoices(db: Db, accountId: number): Promise<{ value: string; label: string }[]> {
  const [members, keys] = await Promise.all([listMembers(db, accountId), listApiKeys(db, accountId)]);
  return [
    ...members.map((m) => ({ value: `user:${m.userId}`, label: m.email })),
    ...keys.map((k) => ({ value: `api_key:${k.id}`, label: `API key ${k.name} (${k.prefix}…)` })),
    { value: "system", label: "BSC Pay (automatic)" },
  ];
}

/** `/dashboard/audit`: one page of events (cursors both ways), each with its sentence, and the actor choices. */
export async function loadAuditPage(db: Db, accountId: number, filters: AuditFilters, cursors: { after?: string; before?: string }) {
  const [page, actors] = await Promise.all([
    auditPage(db, accountId, { ...filters, ...cursors, limit: AUDIT_PAGE_SIZE }),
    auditActorChoices(db, accountId),
  ]);
  const names = await auditNames(db, accountId, page.items);
  return { page: { ...page, items: page.items.map((item) => ({ ...item, sentence: auditSentence(item, names) })) }, actors };
}

export const AUDIT_CSV_COLUMNS = [
  "id",
  "at",
  "action",
  "actorKind",
  "actorUserId",
  "actorApiKeyId",
  "actor",
  "address",
  "targetType",
  "targetId",
  "before",
  "after",
] as const;

const EXPORT_BATCH = 2000;

/** The events as CSV bytes: the header at once, then one chunk per batch. */
export function auditCsvStream(db: Db, accountId: number, filters: AuditFilters, batch = EXPORT_BATCH): ReadableStream<Uint8Array> {
  const batches = auditExportBatches(db, accountId, filters, batch);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine([...AUDIT_CSV_COLUMNS])));
    },
    async pull(controller) {
      const next = await batches.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.join("")));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}

/** `/dashboard/audit/export`: the filtered events as CSV bytes. */
export async function openAuditExport(accountId: number, filters: AuditFilters): Promise<ReadableStream<Uint8Array>> {
  return auditCsvStream(await getDb(), accountId, filters);
}

async function* auditExportBatches(db: Db, accountId: number, filters: AuditFilters, batch: number): AsyncGenerator<string[]> {
  let after: { time: string; id: number } | null = null;
  for (;;) {
    const bound: SQL | undefined = after
      ? sql`(${auditEvents.at}, ${auditEvents.id}) < (${after.time}::timestamptz, ${after.id}::bigint)`
      : undefined;
    const rows = await db
      .select({ event: auditEvents, keysetTime: sql<string>`to_char(${auditEvents.at} at time zone 'UTC', ${KEYSET_TIME_FORMAT})` })
      .from(auditEvents)
      .where(and(auditWhere(accountId, filters), bound))
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(batch);
    if (rows.length > 0) {
      yield rows.map(({ event }) => {
        const view = toAuditView(event);
        return csvLine([
          view.id,
          view.at,
          view.action,
          view.actor.kind,
          view.actor.userId ?? null,
          view.actor.apiKeyId ?? null,
          view.actor.label,
          view.address,
          view.target?.type ?? null,
          view.target?.id ?? null,
          view.before === null ? null : JSON.stringify(view.before),
          view.after === null ? null : JSON.stringify(view.after),
        ]);
      });
    }
    const last = rows.at(-1);
    if (rows.length < batch || !last) return;
    after = { time: last.keysetTime, id: last.event.id };
  }
}
