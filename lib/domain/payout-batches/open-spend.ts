/**
 * What a wallet's transactions in the ledger that are not mined yet may still take from its BNB:
 * their gas (each nonce at its dearest row, as a replacement may be the one that mines) and the BNB
 * they send as value (a BNB withdrawal, refund or payout chunk). A new send is checked against the
 * balance net of both, so it never counts on BNB an open transaction will take.
 */

import { and, eq } from "drizzle-orm";
import type { Db } from "../../db";
import { chainTransactions } from "../../db/schema";

export async function openSpend(db: Db, network: string, wallet: string): Promise<{ gas: bigint; value: bigint }> {
  const open = await db
    .select({
      nonce: chainTransactions.nonce,
      gasLimit: chainTransactions.gasLimit,
      gasPrice: chainTransactions.gasPrice,
      value: chainTransactions.value,
    })
    .from(chainTransactions)
    .where(and(eq(chainTransactions.network, network), eq(chainTransactions.wallet, wallet), eq(chainTransactions.status, "pending")));
  const perNonce = new Map<number, { gas: bigint; value: bigint }>();
  for (const row of open) {
    const gas = row.gasLimit * row.gasPrice;
    const seen = perNonce.get(row.nonce);
    perNonce.set(row.nonce, {
      gas: seen && seen.gas > gas ? seen.gas : gas,
      value: seen && seen.value > row.value ? seen.value : row.value,
    });
  }
  let gas = 0n;
  let value = 0n;
  for (const spend of perNonce.values()) {
    gas += spend.gas;
    value += spend.value;
  }
  return { gas, value };
}
