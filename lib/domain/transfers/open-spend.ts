/**
 * What a wallet's transactions in the ledger that are not mined yet may still take from its BNB:
 * their gas (each nonce at its dearest row, as a replacement may be the one that mines) and the BNB
 * they send as value (a BNB withdrawal, refund or payout chunk). A new send is checked against the
 * balance net of both, so it never counts on BNB an open transaction will take. Only nonces at or
 * above `chainCount` (the wallet's mined count, read with the balance) are open: a row mined but not
 * yet settled has left the balance already and is not counted twice.
 */

import { and, eq, gte, inArray } from "drizzle-orm";
import type { Db } from "../../db";
import { chainTransactions } from "../../db/schema";

export async function openSpend(db: Db, network: string, wallet: string, chainCount: number): Promise<{ gas: bigint; value: bigint }> {
  const open = await db
    .select({
      nonce: chainTransactions.nonce,
      gasLimit: chainTransactions.gasLimit,
      gasPrice: chainTransactions.gasPrice,
      value: chainTransactions.value,
    })
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.network, network),
        eq(chainTransactions.wallet, wallet),
        eq(chainTransactions.status, "pending"),
        gte(chainTransactions.nonce, chainCount),
      ),
    );
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

/** How far back the tank's credit is followed: its top-ups are used within minutes; a week is ample. */
const CREDIT_WINDOW_MS = 7 * 24 * 3600 * 1000;

/**
 * The gas tank's BNB still in a withdrawal wallet: its top-ups, less the fees the
 * wallet's transactions paid from them, in block order — a fee paid while nothing of the tank's was
 * left came from the merchant's own BNB. It is there to pay gas and stays there: BNB sent out as
 * value (a BNB withdrawal, refund or payout) may take only what is left beside it, else a merchant
 * could turn the unused margin of the gas the tank lends into BNB of their own.
 */
export async function tankCredit(db: Db, network: string, wallet: string, now = new Date()): Promise<bigint> {
  const since = new Date(now.getTime() - CREDIT_WINDOW_MS);
  const [lent, paid] = await Promise.all([
    db
      .select({ block: chainTransactions.minedBlock, wei: chainTransactions.value })
      .from(chainTransactions)
      .where(
        and(
          eq(chainTransactions.network, network),
          eq(chainTransactions.toAddress, wallet),
          eq(chainTransactions.kind, "wallet_gas"),
          inArray(chainTransactions.status, ["pending", "mined"]),
          gte(chainTransactions.createdAt, since),
        ),
      ),
    db
      .select({ block: chainTransactions.minedBlock, wei: chainTransactions.feePaid })
      .from(chainTransactions)
      .where(
        and(
          eq(chainTransactions.network, network),
          eq(chainTransactions.wallet, wallet),
          inArray(chainTransactions.status, ["mined", "reverted"]),
          gte(chainTransactions.createdAt, since),
        ),
      ),
  ]);
  // A top-up not mined yet is on its way: it counts last. In one block a top-up comes before the sends it pays for.
  const events = [
    ...lent.map((r) => ({ block: r.block ?? Number.MAX_SAFE_INTEGER, order: 0, wei: r.wei })),
    ...paid.map((r) => ({ block: r.block ?? Number.MAX_SAFE_INTEGER, order: 1, wei: -(r.wei ?? 0n) })),
  ].sort((x, y) => x.block - y.block || x.order - y.order);
  let credit = 0n;
  for (const event of events) {
    credit += event.wei;
    if (credit < 0n) credit = 0n;
  }
  return credit;
}

/**
 * What a BNB send out of the wallet may not take for gas: the open transactions' gas, or the tank's
 * credit (tankCredit) if that is more. (A bigint: Math.max does not take one.)
 */
export async function gasHeldBack(db: Db, network: string, wallet: string, openGas: bigint): Promise<bigint> {
  const credit = await tankCredit(db, network, wallet);
  return credit > openGas ? credit : openGas;
}
