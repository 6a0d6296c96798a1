/**
 * A payment's CSV line, written by the database: exactly what `csvLine` (shared/csv.ts) writes
 * of the list's row (toRow), column for column. A month of a big history is ~70k lines; building
 * them in JavaScript made a string per cell and an object per row, and the collector's time on a
 * server's big heap was most of an export (~0.5 s of a 1.5 s month). Here each row comes
 * back as one string. tests/integration/payments-export.test.ts holds the two writings equal over
 * hostile text (quotes, commas, line breaks, formula starts), every status, amounts of 6 and 18
 * decimals, fiat prices and empty cells.
 */

import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { KEYSET_TIME_FORMAT } from "../../../base/cursor";
import { formatAmount } from "../../../base/money";
import { paymentSessions, tokens } from "../../../db/schema";
import { FIAT_MINOR_UNITS, formatFiatAmount } from "../../../domain/pricing/fiat";
import { type Conversion, convertMinor, minorDigitsOf } from "../account/account-value";

/** As `Date.toISOString()` writes it (milliseconds, cut as JS cuts PostgreSQL's microseconds); '' for null. */
const isoMs = (column: SQLWrapper) => sql`coalesce(to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`;

/**
 * `csvCell` of text: '' for null; a leading =, +, -, @, tab or CR neutralised with '; quoted when it
 * holds ", comma, CR or LF (the ' never changes whether it is). One regular expression per test.
 */
function cell(value: SQLWrapper): SQL {
  const guarded = sql`(case when ${value} ~ '^[-=+@\t\r]' then '''' || ${value} else ${value} end)`;
  return sql`(case when ${value} is null then ''
    when ${value} ~ '[",\r\n]' then '"' || replace(${guarded}, '"', '""') || '"'
    else ${guarded} end)`;
}

/** `formatFiatAmount(minor, FIAT_MINOR_UNITS[currency])`: every minor digit shown ("25.00"); '' for a token-priced session. */
function fiatAmount(minor: SQLWrapper, currency: SQLWrapper): SQL {
  const known = Object.entries(FIAT_MINOR_UNITS).map(([code, places]) => sql`when ${code} then ${sql.raw(String(places))}`);
  const places = sql`(case ${currency} ${sql.join(known, sql` `)} else 2 end)`;
  const digits = sql`lpad(${minor}::text, greatest(length(${minor}::text), ${places} + 1), '0')`;
  return sql`(case when ${currency} is null or ${minor} is null then ''
    when ${places} = 0 then ${digits}
    else left(${digits}, length(${digits}) - ${places}) || '.' || right(${digits}, ${places}) end)`;
}

/**
 * The line (CSV_COLUMNS' order, without its CRLF) in three parts around its two token amounts,
 * which `lineOf` formats (bigint arithmetic is cheaper here than numeric's in the database), and
 * its row's keyset. `now` decides a due pending payment's "expired" as toRow does.
 */
export function csvLineSelection(now: Date, peggedTokenIds: readonly number[] = []) {
  const s = paymentSessions;
  const plain = (value: SQLWrapper) => sql`coalesce(${value}::text, '')`;
  const joined = (cells: SQL[]) => sql<string>`${sql.join(cells, sql` || ',' || `)}`;
  return {
    head: joined([
      sql`${s.id}::text`,
      cell(s.orderId),
      cell(s.description),
      isoMs(s.createdAt),
      sql`(case when ${s.status} = 'pending' and ${s.expiresAt} <= ${now.toISOString()}::timestamptz then 'expired' else ${s.status} end)`,
    ]),
    amount: sql<string>`${s.amount}::text`,
    receivedAmount: sql<string>`${s.receivedAmount}::text`,
    decimals: tokens.decimals,
    tail: joined([
      cell(tokens.symbol),
      // Config names, ids, hex and booleans: never a formula start, a quote, a comma or a line break.
      plain(s.network),
      plain(s.domainId),
      plain(s.depositAddress),
      plain(s.txHash),
      plain(s.overpaid),
      plain(s.late),
      isoMs(s.expiresAt),
      isoMs(s.completedAt),
      plain(s.currency),
      fiatAmount(s.fiatAmount, s.currency),
      sql`(case when ${s.currency} is null then '' else coalesce(${s.rate}, '') end)`,
    ]),
    // The recorded value (UserPaymentRow.value) in minor units and its currency; lineOf writes them and the account's cells.
    valueMinor: sql<string | null>`(case when ${s.receivedAmount} <= 0 then null
      when ${s.currency} is not null then (case when ${s.amount} > 0 then div(${s.fiatAmount} * ${s.receivedAmount}, ${s.amount}) else 0 end)
      when ${pegged(peggedTokenIds)} then div(${s.receivedAmount} * 100, power(10::numeric, ${tokens.decimals}))
      end)::text`,
    valueCurrency: sql<string | null>`(case when ${s.receivedAmount} <= 0 then null
      when ${s.currency} is not null then ${s.currency} when ${pegged(peggedTokenIds)} then 'USD' end)`,
    time: sql<string>`to_char(${s.createdAt} at time zone 'UTC', ${KEYSET_TIME_FORMAT})`,
    id: sql<string>`${s.id}::text`,
  };
}

/** The session's token is one of the user's USD stablecoins (ids: small integers from the database, inlined). */
function pegged(ids: readonly number[]): SQL {
  if (ids.length === 0) return sql`false`;
  if (!ids.every((id) => Number.isSafeInteger(id))) throw new Error("export: token ids are integers");
  return sql`${paymentSessions.tokenId} in (${sql.raw(ids.join(", "))})`;
}

/** What a row of csvLineSelection holds, as the database sends it. */
export interface LineParts {
  head: string;
  amount: string;
  receivedAmount: string;
  decimals: number;
  tail: string;
  valueMinor: string | null;
  valueCurrency: string | null;
  time: string;
  id: string;
}

/** The export's columns after the list's (CSV_COLUMNS): the account's currency, the row's value in it, and the rate used. */
export const ACCOUNT_CSV_COLUMNS = ["accountCurrency", "accountValue", "accountRate"] as const;

/** How an export values its rows: the account's currency, and today's rate to it from each other currency that has one. */
export interface ExportValuation {
  currency: string;
  conversions: ReadonlyMap<string, Conversion>;
}

/**
 * The account's cells of a row whose value is `minor` units of `currency` (null: none): the account
 * currency, the value in it (converted at today's rate, rounded down, when the currencies differ;
 * '' when there is no rate now), and that rate ('' when none was needed or there was none).
 */
export function accountCells(minor: bigint | null, currency: string | null, valuation: ExportValuation): [string, string, string] {
  if (minor === null || currency === null) return [valuation.currency, "", ""];
  if (currency === valuation.currency) return [valuation.currency, formatFiatAmount(minor, minorDigitsOf(currency)), ""];
  const conversion = valuation.conversions.get(currency);
  if (!conversion) return [valuation.currency, "", ""];
  return [valuation.currency, formatFiatAmount(convertMinor(minor, conversion), minorDigitsOf(valuation.currency)), conversion.rate];
}

/** The whole line: the amount, and what was received ('' for nothing), as `formatAmount` writes them. */
export function lineOf(row: LineParts, valuation: ExportValuation): string {
  const received = BigInt(row.receivedAmount);
  const receivedText = received > 0n ? formatAmount(received, row.decimals) : "";
  const minor = row.valueMinor === null ? null : BigInt(row.valueMinor);
  const value = minor === null || row.valueCurrency === null ? "" : formatFiatAmount(minor, minorDigitsOf(row.valueCurrency));
  const [accountCurrency, accountValue, accountRate] = accountCells(minor, row.valueCurrency, valuation);
  return `${row.head},${formatAmount(BigInt(row.amount), row.decimals)},${receivedText},${row.tail},${row.valueCurrency ?? ""},${value},${accountCurrency},${accountValue},${accountRate}`;
}
