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

import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type postgres from "postgres";
import type { Db } from "../../../db";
import { paymentSessions, tokens, users } from "../../../db/schema";
import { FIAT_MINOR_UNITS } from "../../../domain/pricing/fiat";
import { type Conversion, todaysConversion } from "../account/account-value";
import { csvLine } from "../shared/csv";
import { ACCOUNT_CSV_COLUMNS, csvLineSelection, type ExportValuation, type LineParts, lineOf } from "./payments-csv-line";
import { CSV_COLUMNS, type PaymentFilters, paymentsWhere, tokenUsdPegged, type UserPaymentRow } from "./user-payments";

/** Rows per cursor fetch or keyset batch, and so per chunk written to the response (~1.4 MB). */
export const EXPORT_BATCH = 5000;

/** What a CSV line holds: the list's row (toRow in user-payments.ts) restricted to the exported columns. */
export type CsvPaymentRow = Omit<UserPaymentRow, "metadata" | "paymentLinkId">;

/** The export's header: the list's columns, then the account currency's (payments-csv-line.ts). */
export const PAYMENTS_CSV_HEADER: readonly string[] = [...CSV_COLUMNS, ...ACCOUNT_CSV_COLUMNS];

/**
 * How the user's export values rows now: the account's currency (users.account_currency) and
 * today's rate to it from every other currency that has one (account/account-value.ts, cached a minute).
 */
export async function exportValuation(db: Db, userId: number, now = new Date()): Promise<ExportValuation> {
  const [user] = await db.select({ currency: users.accountCurrency }).from(users).where(eq(users.id, userId));
  const currency = user?.currency ?? "USD";
  const others = Object.keys(FIAT_MINOR_UNITS).filter((c) => c !== currency);
  const found = await Promise.all(others.map((c) => todaysConversion(db, c, currency, now)));
  return { currency, conversions: new Map(found.filter((c): c is Conversion => c !== null).map((c) => [c.from, c])) };
}

/** The user's tokens that are USD stablecoins in the catalogue: their payments are valued 1:1 USD. */
async function peggedTokenIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: tokens.id })
    .from(tokens)
    .where(and(eq(tokens.userId, userId), tokenUsdPegged));
  return rows.map((r) => r.id);
}

/** The list's order, index order for `(user_id, created_at, id)`. */
const NEWEST_FIRST = [desc(paymentSessions.createdAt), desc(paymentSessions.id)] as const;

/** A batch of the export: its CSV lines, and where the next batch starts (the last row's keyset). */
export interface ExportBatch {
  text: string;
  rows: number;
  last: { time: string; id: string } | null;
}

/** The filtered payments as CSV bytes: the header at once, then one chunk per batch of rows. */
export function paymentsCsvStream(
  db: Db,
  userId: number,
  filters: PaymentFilters,
  batch = EXPORT_BATCH,
  valuation?: ExportValuation,
): ReadableStream<Uint8Array> {
  const batches = paymentExportBatches(db, userId, filters, batch, valuation);
  const encoder = new TextEncoder();
  // One batch read ahead: the database reads and writes the next lines while this process sends the last ones.
  let ahead = batches.next();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine([...PAYMENTS_CSV_HEADER])));
    },
    async pull(controller) {
      const next = await ahead;
      if (next.done) return controller.close();
      ahead = batches.next();
      controller.enqueue(encoder.encode(next.value.text));
    },
    // The reader went away (a closed tab, a cancelled download): end the cursor and free its connection.
    async cancel() {
      await ahead.catch(() => undefined); // the batch read ahead settles first: no rejection left unheard
      await batches.return(undefined);
    },
  });
}

/** The export's lines in batches, in the list's order; `return()` ends the read early and releases its connection. */
export async function* paymentExportBatches(
  db: Db,
  userId: number,
  filters: PaymentFilters,
  batch = EXPORT_BATCH,
  valuation?: ExportValuation,
): AsyncGenerator<ExportBatch> {
  const client = postgresClient(db);
  const now = new Date();
  const [valued, pegged] = await Promise.all([valuation ?? exportValuation(db, userId, now), peggedTokenIds(db, userId)]);
  const selection = csvLineSelection(now, pegged);
  if (client) yield* cursorBatches(db, client, selection, paymentsWhere(userId, filters), batch, valued);
  else yield* keysetBatches(db, selection, paymentsWhere(userId, filters), batch, valued);
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
 * selection's order (drizzle selects a flat object's fields in key order): the line, then its keyset.
 */
async function* cursorBatches(
  db: Db,
  client: postgres.Sql,
  selection: ReturnType<typeof csvLineSelection>,
  where: SQL,
  batch: number,
  valuation: ExportValuation,
): AsyncGenerator<ExportBatch> {
  const query = db
    .select(selection)
    .from(paymentSessions)
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .toSQL();
  const connection = await client.reserve();
  let open = false;
  try {
    await connection.unsafe("begin read only");
    open = true;
    await connection.unsafe(`declare payments_export no scroll cursor for ${query.sql}`, query.params as postgres.ParameterOrJSON<never>[]);
    for (;;) {
      const rows = await connection.unsafe(`fetch forward ${batch} from payments_export`).values();
      if (rows.length > 0) yield batchOf(rows.map(partsOf), valuation);
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

/** A cursor row's values, in csvLineSelection's order (drizzle selects a flat object's fields in key order). */
function partsOf(values: unknown[]): LineParts {
  if (values.length !== 9) throw new Error(`export: expected 9 columns, got ${values.length}`);
  const [head, amount, receivedAmount, decimals, tail, valueMinor, valueCurrency, time, id] = values;
  return {
    head: head as string,
    amount: amount as string,
    receivedAmount: receivedAmount as string,
    decimals: Number(decimals),
    tail: tail as string,
    valueMinor: valueMinor as string | null,
    valueCurrency: valueCurrency as string | null,
    time: time as string,
    id: id as string,
  };
}

function batchOf(rows: LineParts[], valuation: ExportValuation): ExportBatch {
  let text = "";
  for (const row of rows) text += `${lineOf(row, valuation)}\r\n`;
  const last = rows.at(-1);
  return { text, rows: rows.length, last: last ? { time: last.time, id: last.id } : null };
}

/** Short keyset queries, each starting strictly after the previous batch's last row, exact to the microsecond. */
async function* keysetBatches(
  db: Db,
  selection: ReturnType<typeof csvLineSelection>,
  where: SQL,
  batch: number,
  valuation: ExportValuation,
): AsyncGenerator<ExportBatch> {
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
    const lines = batchOf(rows, valuation);
    if (rows.length > 0) yield lines;
    if (rows.length < batch || !lines.last) return;
    after = lines.last;
  }
}
