/**
 * Recording what balance readings found unexplained, exactly once. In one transaction: the watch
 * rows of the addresses are locked (address order; only the poller takes them), the explained
 * balance is computed again under the lock, and for each reading — by block, lowest first — the
 * remainder above it is handed to the injected recorder as a deposit keyed by (block, address)
 * (NATIVE_BALANCE_LOG_INDEX); the row's `recorded_block` moves to that block. A reading at or below
 * a row's `recorded_block` records nothing: the later reading already accounted for everything
 * before it, so two pollers (or one poll done again after a crash) never count an increase twice.
 * An address that is moving at one of its readings skips that and its later readings.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { type Address, getAddress, zeroAddress } from "viem";
import { errorText } from "../../base/error-text";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type NativeBalanceWatchRow, nativeBalanceWatch } from "../../db/schema/engine";
import { NATIVE_BALANCE_LOG_INDEX, NATIVE_TOKEN, nativeBalanceDepositId } from "../chain/native";
import type { BlockHeader } from "./block-headers";
import { explainedBalances } from "./native-balance-ledger";
import type { NativeWatchPort } from "./native-watch";
import { isDataError } from "./recording";
import type { ObservedTransfer, TransferRecorder } from "./scanner";

export interface BalanceReading {
  row: NativeBalanceWatchRow;
  block: BlockHeader;
  balance: bigint;
}

export interface RecordOutcome {
  recorded: number;
  /** Addresses skipped because something of ours was moving their BNB (read again next poll). */
  moving: string[];
}

/**
 * Records the readings' unexplained remainders and marks `finals` (address → block of its deadline's
 * read) done — except for addresses skipped as moving — all in one transaction.
 */
export async function recordReadings(
  db: Db,
  network: string,
  readings: BalanceReading[],
  finals: ReadonlyMap<string, bigint>,
  record: TransferRecorder,
  port: NativeWatchPort,
): Promise<RecordOutcome> {
  const addresses = [...new Set([...readings.map((r) => r.row.address), ...finals.keys()])].sort();
  if (addresses.length === 0) return { recorded: 0, moving: [] };
  return db.transaction(async (tx) => {
    const locked = new Map(
      (
        await tx
          .select()
          .from(nativeBalanceWatch)
          .where(and(eq(nativeBalanceWatch.network, network), inArray(nativeBalanceWatch.address, addresses)))
          .orderBy(nativeBalanceWatch.address)
          .for("update")
      ).map((row) => [row.address, row]),
    );
    const skipped = new Set<string>();
    let recorded = 0;
    const blocks = [...new Set(readings.map((r) => r.block.number))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const number of blocks) {
      const atBlock = readings.filter((r) => r.block.number === number && !skipped.has(r.row.address));
      if (atBlock.length === 0) continue;
      const accounts = await explainedBalances(
        tx,
        network,
        atBlock.map((r) => r.row.address),
        number,
        port,
      );
      const transfers: ObservedTransfer[] = [];
      for (const reading of atBlock) {
        const row = locked.get(reading.row.address);
        const account = accounts.get(reading.row.address);
        // Dropped meanwhile (its session completed), or another poller already read past this block.
        if (!row || !account || row.recordedBlock >= number) continue;
        if (account.moving) {
          skipped.add(row.address);
          continue;
        }
        const unexplained = reading.balance - account.explained;
        if (unexplained > 0n) transfers.push(transferOf(network, row, reading.block, unexplained));
      }
      const kept = await recordSafely(tx, transfers, record);
      recorded += kept.length;
      for (const t of kept) {
        const row = locked.get(t.toAddress);
        if (row) locked.set(t.toAddress, { ...row, recordedBlock: number });
      }
      const moved = kept.map((t) => t.toAddress);
      if (moved.length > 0)
        await tx
          .update(nativeBalanceWatch)
          .set({ recordedBlock: number, updatedAt: new Date() })
          .where(and(eq(nativeBalanceWatch.network, network), inArray(nativeBalanceWatch.address, moved)));
    }
    for (const [address, block] of finals) {
      if (skipped.has(address) || !locked.has(address)) continue;
      await tx
        .update(nativeBalanceWatch)
        .set({ finalBlock: block, updatedAt: new Date() })
        .where(
          and(eq(nativeBalanceWatch.network, network), eq(nativeBalanceWatch.address, address), isNull(nativeBalanceWatch.finalBlock)),
        );
    }
    return { recorded, moving: [...skipped] };
  });
}

function transferOf(network: string, row: NativeBalanceWatchRow, block: BlockHeader, amount: bigint): ObservedTransfer {
  return {
    network,
    txHash: nativeBalanceDepositId(block.hash, row.address),
    logIndex: NATIVE_BALANCE_LOG_INDEX,
    blockNumber: block.number,
    blockHash: block.hash,
    blockTimestamp: block.timestamp,
    tokenContract: NATIVE_TOKEN,
    // An internal transfer's sender is not known from a balance: the zero address says so.
    fromAddress: zeroAddress,
    toAddress: getAddress(row.address as Address),
    amount,
    sessionId: row.sessionId,
  };
}

/**
 * The transfers through the recorder in a savepoint; if the database refuses some transfer's data
 * (its session deleted meanwhile), one by one, leaving the refused out (logged; read again next poll).
 */
async function recordSafely(tx: Db, transfers: ObservedTransfer[], record: TransferRecorder): Promise<ObservedTransfer[]> {
  if (transfers.length === 0) return [];
  try {
    await tx.transaction((sp) => record(sp, transfers));
    return transfers;
  } catch (error) {
    if (!isDataError(error)) throw error;
  }
  const recorded: ObservedTransfer[] = [];
  for (const transfer of transfers) {
    try {
      await tx.transaction((sp) => record(sp, [transfer]));
      recorded.push(transfer);
    } catch (error) {
      if (!isDataError(error)) throw error;
      log.warn(
        { network: transfer.network, address: transfer.toAddress, err: errorText(error) },
        "a BNB balance increase could not be recorded",
      );
    }
  }
  return recorded;
}
