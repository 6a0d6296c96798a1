/** Transaction helpers without state. Sending is the ledger's alone (lib/engine/ledger/broadcast.ts): only recorded bytes go out. */

import { type Address, type Hex, keccak256, type PublicClient, type TransactionReceipt } from "viem";

export function hashOfRaw(raw: Hex): Hex {
  return keccak256(raw);
}

/** The receipt, or null while the transaction is not mined (or unknown). */
export async function receiptOf(client: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if ((error as { name?: string }).name === "TransactionReceiptNotFoundError") return null;
    throw error;
  }
}

/** A plain BNB transfer to an account without code. */
export const PLAIN_TRANSFER_GAS = 21_000n;
/**
 * A deposit address delegated to DepositDelegate (EIP-7702) runs its empty receive() on a BNB
 * transfer, which costs a little over 21,000: a top-up with the bare 21,000 would revert.
 * Only the service's own delegation can be on its addresses (it takes their key), so the bound is known.
 */
const DELEGATED_TRANSFER_GAS = 40_000n;

export async function topUpGasLimit(client: PublicClient, to: Address): Promise<bigint> {
  const code = await client.getCode({ address: to });
  return code && code !== "0x" ? DELEGATED_TRANSFER_GAS : PLAIN_TRANSFER_GAS;
}
