import { eq, sql } from "drizzle-orm";
import type { Hex } from "viem";
import type { Db } from "../../db";
import { type ChainTransaction, chainTransactions } from "../../db/schema/engine";
import { publicClientFor } from "../chain/networks";
import { broadcastLanded, classifyRpcError, isPermanentRefusal, nodeMessage, type RpcErrorKind } from "../chain/rpc-errors";

export type LedgerBroadcast = { sent: true } | { sent: false; kind: RpcErrorKind; refusedForGood: boolean; error: string };

/** Marks what a node said when it refused a row for good; the watchdog fills such a nonce at once. */
export const REFUSED_PREFIX = "refused: ";

/**
 * Sends a recorded row's bytes (only ever these bytes). An answer meaning "this transaction or its
 * nonce is already in" — "underpriced" too — counts as sent: whether it lands is read from the
 * chain by the settlement and the watchdog, never from the node's answer.
 */
export async function broadcastRecorded(db: Db, row: Pick<ChainTransaction, "id" | "network" | "rawTx">): Promise<LedgerBroadcast> {
  if (!row.rawTx) return { sent: true };
  let refusal: { kind: RpcErrorKind; error: string; permanent: boolean } | null = null;
  try {
    await publicClientFor(row.network).request({ method: "eth_sendRawTransaction", params: [row.rawTx as Hex] });
  } catch (error) {
    refusal = { kind: classifyRpcError(error), error: nodeMessage(error).slice(0, 300), permanent: isPermanentRefusal(error) };
  }
  // Only the allow-list of refusals of the bytes themselves counts for good: anything else (a
  // provider's own words, an HTML page, a method the endpoint lacks) is sent again later.
  const refusedForGood = refusal !== null && !broadcastLanded(refusal.kind) && refusal.permanent;
  const now = new Date();
  await db
    .update(chainTransactions)
    .set({
      broadcasts: sql`${chainTransactions.broadcasts} + 1`,
      firstBroadcastAt: sql`coalesce(${chainTransactions.firstBroadcastAt}, ${now.toISOString()}::timestamptz)`,
      lastBroadcastAt: now,
      broadcastError: refusal
        ? (refusedForGood ? `${REFUSED_PREFIX}${refusal.error}` : `${refusal.kind}: ${refusal.error}`).slice(0, 500)
        : null,
      updatedAt: now,
    })
    .where(eq(chainTransactions.id, row.id));
  if (!refusal || broadcastLanded(refusal.kind)) return { sent: true };
  return { sent: false, kind: refusal.kind, refusedForGood, error: refusal.error };
}
