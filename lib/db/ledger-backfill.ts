import { sql } from "drizzle-orm";
import { getAddress, type Hex, parseTransaction, recoverTransactionAddress } from "viem";
import type { Db } from "./client";
import { rowsOf } from "./rows";

/**
 * Completes ledger rows that migrations moved from records that did not keep every field
 * (`gas_top_ups`: sender and fees; forwards: the gas tank's address; `sweep_batches`: the
 * recipient): they are read back from the signed bytes (the signature names the sender). Runs in
 * the migration's transaction, so a half-moved ledger is never committed.
 */
export async function completeMovedLedgerRows(tx: Db): Promise<number> {
  const rows = rowsOf<{ id: string | number; raw_tx: string }>(
    await tx.execute(sql`select id, raw_tx from chain_transactions where (wallet = '' or to_address = '') and raw_tx is not null`),
  );
  for (const row of rows) {
    const raw = row.raw_tx as Hex;
    const parsed = parseTransaction(raw);
    const wallet = await recoverTransactionAddress({
      serializedTransaction: raw as Parameters<typeof recoverTransactionAddress>[0]["serializedTransaction"],
    });
    const gasPrice = parsed.gasPrice ?? parsed.maxFeePerGas ?? 0n;
    await tx.execute(
      sql`update chain_transactions set wallet = ${wallet}, to_address = ${parsed.to ? getAddress(parsed.to) : ""}, gas_limit = ${(parsed.gas ?? 0n).toString()}, gas_price = ${gasPrice.toString()} where id = ${Number(row.id)}`,
    );
  }
  return rows.length;
}
