/**
 * Each sending wallet's nonce stream (`wallet_nonces`), used only by signing.ts: a nonce is taken
 * in the database transaction that records the transaction signed with it (docs/design.md §17).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { walletNonces } from "../../db/schema/engine";

/**
 * The next nonce of a sending wallet, allocated under a row lock. Call it inside the transaction
 * that also records the signed transaction: the nonce and the record commit together, so
 * concurrent senders (and several processes) never share a nonce. `chainCount` is the wallet's
 * mined transaction count; if something outside this service used the key, the counter jumps
 * ahead to it instead of reusing a spent nonce.
 */
export async function allocateNonce(tx: Db, network: string, address: string, chainCount: number): Promise<number> {
  await tx.insert(walletNonces).values({ network, address, nextNonce: chainCount }).onConflictDoNothing();
  const row = requireRow(
    await tx
      .select()
      .from(walletNonces)
      .where(and(eq(walletNonces.network, network), eq(walletNonces.address, address)))
      .for("update"),
    `wallet_nonces of ${address} on ${network}`,
  );
  const nonce = Math.max(row.nextNonce, chainCount);
  await tx
    .update(walletNonces)
    .set({ nextNonce: nonce + 1, updatedAt: sql`now()` })
    .where(and(eq(walletNonces.network, network), eq(walletNonces.address, address)));
  return nonce;
}

/**
 * The wallet's nonce row locked until the transaction ends (created at `chainCount` if it has none),
 * no nonce taken: what is read under it sees every transaction of the wallet recorded before.
 */
export async function lockNonceRow(tx: Db, network: string, address: string, chainCount: number): Promise<void> {
  await tx.insert(walletNonces).values({ network, address, nextNonce: chainCount }).onConflictDoNothing();
  await tx
    .select({ next: walletNonces.nextNonce })
    .from(walletNonces)
    .where(and(eq(walletNonces.network, network), eq(walletNonces.address, address)))
    .for("update");
}
