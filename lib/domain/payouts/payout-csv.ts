/**
 * The dashboard's payout file: one recipient a line, `address,amount,reference` (the header line
 * optional, the reference optional), amounts in token units as the API takes them. Each row keeps
 * its line number in the file, so a refusal points at the line the merchant sees in their
 * spreadsheet. Pure: the review and the send (dashboard-payouts.ts) both read the file through here.
 */

export interface PayoutCsvRow {
  /** 1-based line in the file (blank lines and the header count, as an editor numbers them). */
  line: number;
  address: string;
  amount: string;
  reference: string;
  /** What is wrong with the line's shape (a missing amount, too many columns), before any value is checked. */
  problem: string | null;
}

/** The longest file taken, in characters: 500 rows of an address, an amount and a 200-character reference fit. */
export const PAYOUT_CSV_MAX_CHARS = 200_000;

const HEADER = /^\s*"?(address|to_?address|recipient)"?\s*(,|$)/i;

/** The file's rows (blank lines left out); a first line naming the columns is the header, not a row. */
export function parsePayoutCsv(text: string): PayoutCsvRow[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const rows: PayoutCsvRow[] = [];
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === "") continue;
    if (rows.length === 0 && HEADER.test(raw) && !/^\s*"?0x/i.test(raw)) continue;
    const cells = splitCsvLine(raw);
    const [address = "", amount = "", reference = "", ...extra] = cells.map((c) => c.trim());
    const problem = extra.some((c) => c !== "")
      ? `has ${cells.length} columns; expected address,amount,reference`
      : amount === ""
        ? "has no amount; expected address,amount,reference"
        : null;
    rows.push({ line: index + 1, address, amount, reference, problem });
  }
  return rows;
}

/** One line's cells: commas separate, double quotes enclose a cell that holds commas ("" is a quote). */
function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell.trim() === "") {
      quoted = true;
      cell = "";
    } else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}
