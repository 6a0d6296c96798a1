/**
 * The dashboard's CSV of payments: every row the list would show for the same filters, newest
 * first, streamed in big chunks without ever holding the set in memory.
 *
 * On PostgreSQL the rows come from one server-side cursor (`DECLARE … CURSOR`, fetched
 * `EXPORT_BATCH` rows at a time inside its own transaction), so the database walks the
 * `(user_id, created_at)` index once and a slow reader holds one connection, not a table of rows.
 * PGlite has a single connection: a cursor held open while the client reads would stall every
 * other query of the process until the download ends, so there the rows come in keyset batches,
 * each a short query bounded by the index (`(created_at, id) < (…)`), the bound carried as
 * microsecond text (a JS Date keeps milliseconds and would skip or repeat rows sharing one).
 */

import { and, desc, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type postgres from "postgres";
import { KEYSET_TIME_FORMAT } from "../../base/cursor";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { paymentSessions, tokens } from "../../db/schema";
import { CSV_COLUMNS, csvCell, csvLine, fiatAmountText, type PaymentFilters, paymentsWhere, type UserPaymentRow } from "./user-payments";

/** Rows per cursor fetch or keyset batch, and so per chunk written to the response (~1.4 MB). */
export const EXPORT_BATCH = 5000;

/** What a CSV line holds: the list's row (toRow in user-payments.ts) restricted to the exported columns. */
export type CsvPaymentRow = Omit<UserPaymentRow, "metadata" | "paymentLinkId">;

/** The list's order, index order for `(user_id, created_at, id)`. */
const NEWEST_FIRST = [desc(paymentSessions.createdAt), desc(paymentSessions.id)] as const;

/** As `Date.toISOString()` writes it (milliseconds, truncated as JS truncates PostgreSQL's microseconds): no Date per cell. */
const isoMs = (column: SQLWrapper) => sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Only what the CSV shows, times already as text: a fraction of the columns and none of the
 * parsing of the list's rows (metadata's JSON above all). `now` decides a due pending payment's
 * "expired" as toRow does.
 */
function csvSelection(now: Date) {
  const s = paymentSessions;
  return {
    sessionId: s.id,
    orderId: s.orderId,
    description: s.description,
    createdAt: isoMs(s.createdAt),
    status: sql<string>`case when ${s.status} = 'pending' and ${s.expiresAt} <= ${now.toISOString()}::timestamptz then 'expired' else ${s.status} end`,
    amount: sql<string>`${s.amount}::text`,
    receivedAmount: sql<string>`${s.receivedAmount}::text`,
    token: tokens.symbol,
    decimals: tokens.decimals,
    network: s.network,
    domainId: s.domainId,
    depositAddress: s.depositAddress,
    txHash: s.txHash,
    overpaid: s.overpaid,
    late: s.late,
    expiresAt: isoMs(s.expiresAt),
    completedAt: isoMs(s.completedAt),
    currency: s.currency,
    fiatAmount: sql<string | null>`${s.fiatAmount}::text`,
    rate: s.rate,
    keysetTime: sql<string>`to_char(${s.createdAt} at time zone 'UTC', ${KEYSET_TIME_FORMAT})`,
  };
}
type Selected = { [K in keyof ReturnType<typeof csvSelection>]: unknown };

function toCsvRow(r: Selected): CsvPaymentRow {
  const decimals = Number(r.decimals);
  const received = BigInt(r.receivedAmount as string);
  return {
    sessionId: r.sessionId as string,
    orderId: r.orderId as string | null,
    description: r.description as string | null,
    createdAt: r.createdAt as string,
    status: r.status as CsvPaymentRow["status"],
    amount: formatAmount(BigInt(r.amount as string), decimals),
    receivedAmount: received > 0n ? formatAmount(received, decimals) : null,
    token: r.token as string,
    network: r.network as string,
    domainId: r.domainId as number | null,
    depositAddress: r.depositAddress as string,
    txHash: r.txHash as string | null,
    overpaid: r.overpaid as boolean,
    late: r.late as boolean,
    expiresAt: r.expiresAt as string,
    completedAt: r.completedAt as string | null,
    currency: r.currency as string | null,
    fiatAmount: fiatAmountText(r.currency as string | null, r.fiatAmount === null ? null : BigInt(r.fiatAmount as string)),
    rate: r.currency === null ? null : (r.rate as string | null),
  };
}

/** The filtered payments as CSV bytes: the header at once, then one chunk per batch of rows. */
export function paymentsCsvStream(db: Db, userId: number, filters: PaymentFilters, batch = EXPORT_BATCH): ReadableStream<Uint8Array> {
  const batches = paymentExportBatches(db, userId, filters, batch);
  const encoder = new TextEncoder();
  // One batch read ahead: the database fetches the next rows while this process formats the last ones.
  let ahead = batches.next();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(CSV_COLUMNS)));
    },
    async pull(controller) {
      const next = await ahead;
      if (next.done) return controller.close();
      ahead = batches.next();
      controller.enqueue(encoder.encode(csvChunk(next.value)));
    },
    // The reader went away (a closed tab, a cancelled download): end the cursor and free its connection.
    async cancel() {
      await ahead.catch(() => undefined); // the batch read ahead settles first: no rejection left unheard
      await batches.return(undefined);
    },
  });
}

/**
 * Columns whose every value is already a plain CSV field: ids, times, amounts, hex, booleans and
 * config names never start like a formula nor hold a quote, comma or line break. Only text a
 * merchant or a shop wrote (order id, description, token symbol) goes through `csvCell`; a month of
 * a big history is a million cells, and most of them need no look.
 */
const PLAIN_COLUMNS = new Set<string>([
  "sessionId",
  "createdAt",
  "status",
  "amount",
  "receivedAmount",
  "network",
  "domainId",
  "depositAddress",
  "txHash",
  "overpaid",
  "late",
  "expiresAt",
  "completedAt",
  // ISO 4217 codes, digits and a dot.
  "currency",
  "fiatAmount",
  "rate",
]);
const CELL_WRITERS = CSV_COLUMNS.map((column) => {
  const key = column as keyof CsvPaymentRow;
  return PLAIN_COLUMNS.has(column)
    ? (row: CsvPaymentRow) => {
        const value = row[key];
        return value === null || value === undefined ? "" : String(value);
      }
    : (row: CsvPaymentRow) => csvCell(row[key]);
});

/** The rows as CSV lines, exactly as `csvLine` writes each. */
export function csvChunk(rows: CsvPaymentRow[]): string {
  let text = "";
  for (const row of rows) {
    let line = "";
    for (let i = 0; i < CELL_WRITERS.length; i++) line += i === 0 ? CELL_WRITERS[i]?.(row) : `,${CELL_WRITERS[i]?.(row)}`;
    text += `${line}\r\n`;
  }
  return text;
}

/** The export's rows in batches, in the list's order; `return()` ends the read early and releases its connection. */
export async function* paymentExportBatches(
  db: Db,
  userId: number,
  filters: PaymentFilters,
  batch = EXPORT_BATCH,
): AsyncGenerator<CsvPaymentRow[]> {
  const client = postgresClient(db);
  const selection = csvSelection(new Date());
  if (client) yield* cursorBatches(db, client, selection, paymentsWhere(userId, filters), batch);
  else yield* keysetBatches(db, selection, paymentsWhere(userId, filters), batch);
}

/** postgres.js behind a drizzle handle (`$client`: a function with `begin`), or null for PGlite. */
function postgresClient(db: Db): postgres.Sql | null {
  const client = (db as { $client?: unknown }).$client;
  return typeof client === "function" && "begin" in client ? (client as postgres.Sql) : null;
}

/**
 * One `DECLARE … CURSOR` over the whole set, fetched `batch` rows at a time in its own transaction
 * on a reserved connection. A declared cursor is planned for its first rows
 * (`cursor_tuple_fraction`): the planner walks the `(user_id, created_at, id)` index in the list's
 * order instead of scanning and sorting a month of a big history before the first byte (a
 * protocol-level portal, postgres.js `.cursor()`, is planned for the whole set and took the sort).
 * drizzle writes the statement (the list's `paymentsWhere`); its rows come back as arrays in the
 * selection's order (drizzle selects a flat object's fields in key order), every field raw.
 */
async function* cursorBatches(
  db: Db,
  client: postgres.Sql,
  selection: ReturnType<typeof csvSelection>,
  where: SQL,
  batch: number,
): AsyncGenerator<CsvPaymentRow[]> {
  const query = db
    .select(selection)
    .from(paymentSessions)
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .toSQL();
  const keys = Object.keys(selection) as (keyof Selected)[];
  const connection = await client.reserve();
  let open = false;
  try {
    await connection.unsafe("begin read only");
    open = true;
    await connection.unsafe(`declare payments_export no scroll cursor for ${query.sql}`, query.params as postgres.ParameterOrJSON<never>[]);
    for (;;) {
      const rows = await connection.unsafe(`fetch forward ${batch} from payments_export`).values();
      if (rows.length > 0) yield rows.map((values) => toCsvRow(rowOf(keys, values)));
      if (rows.length < batch) break;
    }
    await connection.unsafe("commit");
    open = false;
  } finally {
    // An early return (the reader went away) or a failure: end the transaction, and the cursor with it.
    if (open) await connection.unsafe("rollback").catch(() => undefined);
    connection.release();
  }
}

function rowOf(keys: (keyof Selected)[], values: unknown[]): Selected {
  if (values.length !== keys.length) throw new Error(`export: expected ${keys.length} columns, got ${values.length}`);
  const row = {} as Selected;
  for (let i = 0; i < keys.length; i++) row[keys[i] as keyof Selected] = values[i];
  return row;
}

/** Short keyset queries, each starting strictly after the previous batch's last row, exact to the microsecond. */
async function* keysetBatches(
  db: Db,
  selection: ReturnType<typeof csvSelection>,
  where: SQL,
  batch: number,
): AsyncGenerator<CsvPaymentRow[]> {
  let after: { time: string; id: string } | null = null;
  for (;;) {
    const bound: SQL | undefined = after
      ? sql`(${paymentSessions.createdAt}, ${paymentSessions.id}) < (${after.time}::timestamptz, ${after.id}::uuid)`
      : undefined;
    const rows = await db
      .select(selection)
      .from(paymentSessions)
      .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
      .where(and(where, bound))
      .orderBy(...NEWEST_FIRST)
      .limit(batch);
    if (rows.length > 0) yield rows.map(toCsvRow);
    const last = rows.at(-1);
    if (rows.length < batch || !last) return;
    after = { time: last.keysetTime, id: last.sessionId };
  }
}
