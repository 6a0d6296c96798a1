import { sql } from "drizzle-orm";
import { type Address, getAddress, type Hex, parseTransaction } from "viem";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type ChainTransaction, type ChainTransactionKind, chainTransactions, gasCharges, type WalletRole } from "../../db/schema/engine";
import { hashOfRaw } from "../chain/transactions";
import type { GasChargeShare } from "./charges";

export interface SignedTransaction {
  network: string;
  walletRole: WalletRole;
  walletIndex: number;
  wallet: Address;
  kind: ChainTransactionKind;
  raw: Hex;
  /** The row this one re-prices or cancels. */
  replacesId?: number;
  /**
   * The merchants a gas-tank transaction is signed for (their gas accounting). A replacement
   * without it carries the charges of the row it replaces.
   */
  chargedTo?: readonly GasChargeShare[];
}

/**
 * Records a signed transaction in the ledger. Call it inside the database transaction that took
 * its nonce, before anything is broadcast: the nonce, the bytes and the business record that
 * points here commit together or not at all. The fee fields and the nonce are read back from the
 * signed bytes, so the row cannot disagree with what is sent.
 */
export async function recordTransaction(tx: Db, signed: SignedTransaction): Promise<ChainTransaction> {
  const parsed = parseTransaction(signed.raw);
  if (parsed.nonce === undefined || parsed.gas === undefined || !parsed.to)
    throw new Error("a ledger transaction needs a nonce, a gas limit and a recipient");
  const inserted = await tx
    .insert(chainTransactions)
    .values({
      network: signed.network,
      walletRole: signed.walletRole,
      walletIndex: signed.walletIndex,
      wallet: signed.wallet,
      nonce: parsed.nonce,
      kind: signed.kind,
      toAddress: getAddress(parsed.to),
      value: parsed.value ?? 0n,
      gasLimit: parsed.gas,
      gasPrice: parsed.gasPrice ?? parsed.maxFeePerGas ?? 0n,
      txHash: hashOfRaw(signed.raw),
      rawTx: signed.raw,
      replacesId: signed.replacesId ?? null,
    })
    .returning();
  const row = requireRow(inserted, "insert into chain_transactions");
  if (signed.chargedTo && signed.chargedTo.length > 0) {
    await tx.insert(gasCharges).values(
      signed.chargedTo.map((c) => ({
        chainTxId: row.id,
        userId: c.userId,
        units: c.units,
        totalUnits: c.totalUnits,
        createdAt: row.createdAt,
      })),
    );
  } else if (signed.chargedTo === undefined && signed.replacesId !== undefined) {
    await tx.execute(sql`
      insert into ${gasCharges} (chain_tx_id, user_id, units, total_units, created_at)
      select ${row.id}, user_id, units, total_units, ${row.createdAt.toISOString()}::timestamptz from ${gasCharges} where chain_tx_id = ${signed.replacesId}`);
  }
  return row;
}
