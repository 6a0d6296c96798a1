/**
 * The scanner's cursor per network (chain_cursors): the last block whose Transfer logs are
 * recorded. A network's first scan starts FIRST_SCAN_LOOKBACK blocks back, so payments made just
 * before it are not missed; the cursor only moves in the transaction that records what was read,
 * and only from where that scan started (a concurrent scanner's transaction rolls back). Failures
 * are kept as a kind of problem for /api/health, never the RPC's words or URL.
 */
import { and, eq, sql } from "drizzle-orm";
import { BaseError } from "viem";
import type { Db } from "../../db";
import { chainCursors } from "../../db/schema/engine";
import { classifyRpcError, publicRpcProblem } from "../chain/rpc-errors";
import { LogLimitError } from "./log-reader";

/** How far back a network's first scan starts, so payments made just before it are not missed. */
const FIRST_SCAN_LOOKBACK = 2000n;

/** The network's cursor, or null before its first scan: one read, so a scan woken by a new head starts at once. */
export async function storedCursor(db: Db, network: string): Promise<bigint | null> {
  const [row] = await db
    .select({ lastScannedBlock: chainCursors.lastScannedBlock })
    .from(chainCursors)
    .where(eq(chainCursors.network, network));
  return row?.lastScannedBlock ?? null;
}

/** The network's cursor, created FIRST_SCAN_LOOKBACK blocks under `target` on its first scan. */
export async function readCursor(db: Db, network: string, target: bigint): Promise<bigint> {
  const start = target > FIRST_SCAN_LOOKBACK ? target - FIRST_SCAN_LOOKBACK : -1n;
  await db.insert(chainCursors).values({ network, lastScannedBlock: start }).onConflictDoNothing();
  const [row] = await db.select().from(chainCursors).where(eq(chainCursors.network, network));
  if (!row) throw new Error(`the cursor of ${network} was not created`);
  return row.lastScannedBlock;
}

/** Moves the cursor from `from` to `to` inside the recording transaction; throws (rolling it back) if another scanner moved it meanwhile. */
export async function advanceCursor(tx: Db, network: string, from: bigint, to: bigint): Promise<void> {
  const moved = await tx
    .update(chainCursors)
    .set({ lastScannedBlock: to, lastScanAt: new Date(), lastError: null, updatedAt: new Date() })
    .where(and(eq(chainCursors.network, network), eq(chainCursors.lastScannedBlock, from)))
    .returning({ network: chainCursors.network });
  if (moved.length === 0) throw new Error(`cursor of ${network} moved during the scan; retrying next poll`);
}

/** What /api/health may show about a failed scan: the kind of problem, never the RPC's words or URL. */
export function publicScanError(error: unknown): string {
  if (error instanceof LogLimitError) return error.message;
  if (error instanceof BaseError) return publicRpcProblem(classifyRpcError(error));
  return "the scan failed; see the server log";
}

export async function recordScanError(db: Db, network: string, error: unknown): Promise<void> {
  await db
    .update(chainCursors)
    .set({ lastError: publicScanError(error), updatedAt: sql`now()` })
    .where(eq(chainCursors.network, network));
}
