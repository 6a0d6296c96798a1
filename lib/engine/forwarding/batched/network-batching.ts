/**
 * A network's batching record in the database (network_batching), so that every process — and a
 * process after a restart — sees the same answer to "does this network batch?". Facts go through
 * batch-state.ts's decider under the row's lock; what the chain said of EIP-7702 is kept per chain
 * fingerprint (chain id and RPC endpoints), so another chain behind the same network name is asked
 * afresh.
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { type NetworkBatchingRow, networkBatching } from "../../../db/schema/engine";
import { requireNetworkConfig, rpcUrlsOf } from "../../chain/networks";
import { decideNetworkBatching, FRESH_NETWORK, type NetworkBatching, type NetworkFact } from "./batch-state";

export type Eip7702Support = "supported" | "unsupported";

export interface NetworkRecord extends NetworkBatching {
  /** What the chain answered of EIP-7702, if this chain was asked. */
  eip7702: Eip7702Support | null;
}

export async function readNetworkBatching(db: Db, network: string): Promise<NetworkRecord> {
  const [row] = await db.select().from(networkBatching).where(eq(networkBatching.network, network));
  return row ? recordOf(network, row) : { ...FRESH_NETWORK, eip7702: null };
}

/** Applies a fact to the network's record under its row lock (processes that learn at once count once each). */
export async function recordNetworkFact(db: Db, network: string, fact: NetworkFact, now = new Date()): Promise<NetworkBatching> {
  return db.transaction(async (tx) => {
    await tx.insert(networkBatching).values({ network }).onConflictDoNothing();
    const [row] = await tx.select().from(networkBatching).where(eq(networkBatching.network, network)).for("update");
    const current = row ? recordOf(network, row) : { ...FRESH_NETWORK, eip7702: null };
    const next = decideNetworkBatching(current, fact, now);
    if (next !== current) {
      await tx
        .update(networkBatching)
        .set({
          refusedBatches: next.refusedBatches,
          failedChecks: next.failedChecks,
          lastCheckError: next.lastCheckError,
          tankLowUntil: next.tankLowUntil,
          updatedAt: now,
        })
        .where(eq(networkBatching.network, network));
    }
    return next;
  });
}

/** Keeps what the chain said of EIP-7702, for this chain. */
export async function recordEip7702(db: Db, network: string, support: Eip7702Support): Promise<void> {
  const chainKey = chainFingerprint(network);
  await db
    .insert(networkBatching)
    .values({ network, chainKey, eip7702: support })
    .onConflictDoUpdate({ target: networkBatching.network, set: { chainKey, eip7702: support, updatedAt: new Date() } });
}

/** The chain behind a network name: its id and endpoints, hashed (an endpoint may carry a provider key). */
export function chainFingerprint(network: string): string {
  const chain = requireNetworkConfig(network);
  return createHash("sha256")
    .update(`${chain.chainId}:${rpcUrlsOf(chain).join(",")}`)
    .digest("hex")
    .slice(0, 32);
}

function recordOf(network: string, row: NetworkBatchingRow): NetworkRecord {
  return {
    refusedBatches: row.refusedBatches,
    failedChecks: row.failedChecks,
    lastCheckError: row.lastCheckError,
    tankLowUntil: row.tankLowUntil,
    eip7702: row.chainKey === chainFingerprint(network) ? row.eip7702 : null,
  };
}
