/**
 * Logs the scanner set aside (undecodable, or refused by the database), stored raw with the reason
 * so an operator can look (npm run admin -- quarantine); the scan goes on past them.
 */
import { count, desc, eq } from "drizzle-orm";
import { getAddress, hexToBigInt, isAddress } from "viem";
import type { Db } from "../../db";
import { quarantinedLogs } from "../../db/schema/engine";
import { logIndexOf, type RawLog } from "./transfer-log";

export interface QuarantineEntry {
  network: string;
  log: RawLog;
  reason: string;
}

const MAX_DATA_CHARS = 16_384;

/** Stores logs the scanner set aside, raw, with the reason; the same log twice is stored once. */
export async function quarantineLogs(tx: Db, entries: QuarantineEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx
    .insert(quarantinedLogs)
    .values(
      entries.map(({ network, log, reason }) => ({
        network,
        blockNumber: hexToBigInt(log.blockNumber),
        blockHash: log.blockHash?.toLowerCase() ?? null,
        txHash: log.transactionHash.toLowerCase(),
        logIndex: logIndexOf(log),
        contractAddress: isAddress(log.address, { strict: false }) ? getAddress(log.address) : String(log.address).slice(0, 42),
        topics: log.topics.slice(0, 8),
        data: log.data.slice(0, MAX_DATA_CHARS),
        reason: reason.slice(0, 500),
      })),
    )
    .onConflictDoNothing();
}

export async function listQuarantine(db: Db, limit = 100) {
  return db.select().from(quarantinedLogs).orderBy(desc(quarantinedLogs.id)).limit(limit);
}

export async function countQuarantined(db: Db, network: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(quarantinedLogs).where(eq(quarantinedLogs.network, network));
  return Number(row?.n ?? 0);
}
