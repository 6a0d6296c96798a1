/**
 * The gas page's CSV: every ledger transaction the gas tank paid for the merchant, newest first,
 * with what it was for and the BNB charged (its share when it served several merchants), streamed
 * in chunks read by keyset (microsecond-exact, lib/base/cursor.ts).
 */

import { formatAmount } from "../../../base/money";
import type { Db } from "../../../db";
import { gasChargesAfter } from "../../../domain/gas/spend";
import { csvLine } from "../shared/csv";
import { GAS_SPEND_LABELS } from "../shared/wording";

export const GAS_CSV_COLUMNS = ["createdAt", "kind", "purpose", "status", "txHash", "chargedBnb"] as const;
const EXPORT_BATCH = 5000;

export function gasCsvStream(db: Db, userId: number, batch = EXPORT_BATCH): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: { time: string; id: number } | null = null;
  let finished = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine([...GAS_CSV_COLUMNS])));
    },
    async pull(controller) {
      if (finished) return controller.close();
      const rows = await gasChargesAfter(db, userId, after, batch);
      let text = "";
      for (const r of rows) {
        const createdAt = `${r.time.slice(0, 23)}Z`; // milliseconds, as every other export writes times
        text += csvLine([createdAt, r.kind, GAS_SPEND_LABELS[r.kind], r.status, r.txHash, formatAmount(r.wei, 18)]);
      }
      const last = rows.at(-1);
      if (rows.length < batch || !last) finished = true;
      else after = { time: last.cursorTime, id: last.id };
      if (text) controller.enqueue(encoder.encode(text));
      else controller.close();
    },
  });
}
