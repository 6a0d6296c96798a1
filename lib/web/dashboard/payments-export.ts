/**
 * The dashboard's CSV of payments: every row the list would show for the same filters, newest
 * first, streamed in big chunks without ever holding the set in memory.
 *
 * On PostgreSQL the rows come from one server-side cursor (postgres.js `cursor`: a portal read
 * `EXPORT_BATCH` rows at a time inside the statement's own transaction), so the database walks the
 * `(user_id, created_at)` index once and a slow reader holds one connection, not a table of rows.
 * PGlite has a single connection: a cursor held open while the client reads would stall every
 * other query of the process until the download ends, so there the rows come in keyset batches,
 * each a short query bounded by the index (`(created_at, id) < (…)`), the bound carried as
 * microsecond text (a JS Date keeps milliseconds and would skip or repeat rows sharing one).
 */

import type { Column } from "drizzle-orm";
import { and, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type postgres from "postgres";
import { KEYSET_TIME_FORMAT } from "../../base/cursor";
import type { Db } from "../../db";
import { paymentSessions, tokens } from "../../db/schema";
import {
  CSV_COLUMNS,
  csvLine,
  type PaymentFilters,
  paymentsWhere,
  rowSelection,
  type SessionRow,
  toRow,
  type UserPaymentRow,
} from "./user-payments";

/** Rows per cursor fetch or keyset batch, and so per chunk written to the response (~2 MB). */
export const EXPORT_BATCH = 5000;

/** The list's order, index order for `(user_id, created_at, id)`. */
const NEWEST_FIRST = [desc(paymentSessions.createdAt), desc(paymentSessions.id)] as const;

/** The filtered payments as CSV bytes: the header at once, then one chunk per batch of rows. */
export function paymentsCsvStream(db: Db, userId: number, filters: PaymentFilters, batch = EXPORT_BATCH): ReadableStream<Uint8Array> {
  const batches = paymentExportBatches(db, userId, filters, batch);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(CSV_COLUMNS)));
    },
    async pull(controller) {
      const next = await batches.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(csvChunk(next.value)));
    },
    // The reader went away (a closed tab, a cancelled download): end the cursor and free its connection.
    async cancel() {
      await batches.return(undefined);
    },
  });
}

export function csvChunk(rows: UserPaymentRow[]): string {
  let text = "";
  for (const row of rows) text += csvLine(CSV_COLUMNS.map((column) => row[column]));
  return text;
}

/** The export's rows in batches, in the list's order; `return()` ends the read early and releases its connection. */
export async function* paymentExportBatches(
  db: Db,
  userId: number,
  filters: PaymentFilters,
  batch = EXPORT_BATCH,
): AsyncGenerator<UserPaymentRow[]> {
  const client = postgresClient(db);
  if (client) yield* cursorBatches(db, client, paymentsWhere(userId, filters), batch);
  else yield* keysetBatches(db, paymentsWhere(userId, filters), batch);
}

/** postgres.js behind a drizzle handle (`$client`: a function with `begin`), or null for PGlite. */
function postgresClient(db: Db): postgres.Sql | null {
  const client = (db as { $client?: unknown }).$client;
  return typeof client === "function" && "begin" in client ? (client as postgres.Sql) : null;
}

/**
 * One cursor over the whole set. drizzle writes the statement (the same `paymentsWhere` and
 * selection as the list); its rows come back as arrays in the selection's column order and are
 * decoded by each column's own driver mapping, as drizzle would.
 */
async function* cursorBatches(db: Db, client: postgres.Sql, where: SQL, batch: number): AsyncGenerator<UserPaymentRow[]> {
  const query = db
    .select(rowSelection)
    .from(paymentSessions)
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .toSQL();
  const decode = rowDecoder();
  const cursor = client
    .unsafe(query.sql, query.params as postgres.ParameterOrJSON<never>[])
    .values()
    .cursor(batch);
  for await (const rows of cursor) yield rows.map((row) => toRow(decode(row)));
}

/** Decodes a row of `rowSelection` read as an array: the session's columns in table order, then the token's symbol and decimals. */
function rowDecoder(): (row: unknown[]) => SessionRow {
  const columns = Object.entries(getTableColumns(paymentSessions)) as [string, Column][];
  const width = columns.length + 2;
  return (row) => {
    if (row.length !== width) throw new Error(`export: expected ${width} columns, got ${row.length}`);
    const session: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) {
      // biome-ignore lint/style/noNonNullAssertion: i < columns.length
      const [name, column] = columns[i]!;
      const raw = row[i];
      session[name] = raw === null ? null : column.mapFromDriverValue(raw);
    }
    return {
      session: session as SessionRow["session"],
      token: { symbol: String(row[columns.length]), decimals: Number(row[columns.length + 1]) },
    };
  };
}

/** Short keyset queries, each starting strictly after the previous batch's last row, exact to the microsecond. */
async function* keysetBatches(db: Db, where: SQL, batch: number): AsyncGenerator<UserPaymentRow[]> {
  let after: { time: string; id: string } | null = null;
  for (;;) {
    const bound: SQL | undefined = after
      ? sql`(${paymentSessions.createdAt}, ${paymentSessions.id}) < (${after.time}::timestamptz, ${after.id}::uuid)`
      : undefined;
    const rows = await db
      .select({
        ...rowSelection,
        keysetTime: sql<string>`to_char(${paymentSessions.createdAt} at time zone 'UTC', ${KEYSET_TIME_FORMAT})`,
      })
      .from(paymentSessions)
      .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
      .where(and(where, bound))
      .orderBy(...NEWEST_FIRST)
      .limit(batch);
    if (rows.length > 0) yield rows.map(toRow);
    const last = rows.at(-1);
    if (rows.length < batch || !last) return;
    after = { time: last.keysetTime, id: last.session.id };
  }
}
