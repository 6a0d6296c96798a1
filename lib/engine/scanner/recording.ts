/**
 * Recording one poll's transfers through the injected recorder, inside the scanner's transaction.
 * The common case is one plain call; when the database refuses some transfer's data (a value it
 * cannot hold, a constraint), the poll is done again with a savepoint per transfer and the refused
 * ones are quarantined, so one transfer that cannot be stored never holds the cursor back.
 */
import type { Db } from "../../db";
import { errorText } from "../chain/rpc-errors";
import type { QuarantineEntry } from "./quarantine";
import type { ObservedTransfer, TransferRecorder } from "./scanner";
import { logIndexOf, type RawLog } from "./transfer-log";

export async function recordAll(tx: Db, transfers: ObservedTransfer[], record: TransferRecorder): Promise<QuarantineEntry[]> {
  if (transfers.length > 0) await record(tx, transfers);
  return [];
}

/**
 * Each transfer in its own savepoint, quarantining the ones whose data the database refuses — so
 * one transfer that cannot be stored never holds the cursor back. Any other failure (the
 * database is unwell) fails the whole poll, to be retried: an honest payment is never set aside
 * because of a passing fault.
 */
export async function recordOneByOne(
  tx: Db,
  transfers: ObservedTransfer[],
  logs: RawLog[],
  record: TransferRecorder,
): Promise<QuarantineEntry[]> {
  const quarantine: QuarantineEntry[] = [];
  for (const transfer of transfers) {
    try {
      await tx.transaction((sp) => record(sp, [transfer]));
    } catch (error) {
      if (!isDataError(error)) throw error;
      const log = logs.find((l) => l.transactionHash.toLowerCase() === transfer.txHash && logIndexOf(l) === transfer.logIndex);
      // Every transfer was decoded from one of these logs: a miss is a bug, not hostile input.
      if (!log) throw new Error(`no log for transfer ${transfer.txHash}:${transfer.logIndex}`);
      const firstLine = errorText(error).split("\n")[0] ?? "";
      quarantine.push({ network: transfer.network, log, reason: `recording failed: ${firstLine.slice(0, 200)}` });
    }
  }
  return quarantine;
}

/** SQLSTATE classes 22 (data exception: overflow, bad value) and 23 (integrity constraint). */
export function isDataError(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e && typeof e === "object"; e = e.cause as typeof e) {
    if (typeof e.code === "string" && /^2[23][0-9A-Z]{3}$/.test(e.code)) return true;
  }
  return false;
}
