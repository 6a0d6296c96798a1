/** CSV lines as every dashboard export writes them (payments, withdrawals, gas, audit, payout items). */

/** One CSV line (RFC 4180 quoting; a leading =,+,-,@ is neutralised so spreadsheets never run it). */
export function csvLine(values: unknown[]): string {
  let line = "";
  for (let i = 0; i < values.length; i++) line += i === 0 ? csvCell(values[i]) : `,${csvCell(values[i])}`;
  return `${line}\r\n`;
}

const NEEDS_QUOTES = /[",\n\r]/;
const FORMULA_START = new Set(["=", "+", "-", "@", "\t", "\r"]);

/** One CSV field, as csvLine writes it. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (FORMULA_START.has(text.charAt(0))) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
