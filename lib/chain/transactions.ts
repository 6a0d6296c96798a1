import { keccak256, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import { broadcastLanded, classifyRpcError, errorText, type RpcErrorKind } from "./rpc-errors";

export function hashOfRaw(raw: Hex): Hex {
  return keccak256(raw);
}

export type BroadcastResult = { ok: true } | { ok: false; kind: RpcErrorKind; error: string };

/**
 * Sends a signed transaction that may already be known to the node. An answer meaning "this
 * transaction, or its nonce, is already in" is not a failure: the caller checks the receipt.
 */
export async function broadcast(client: PublicClient, raw: Hex): Promise<BroadcastResult> {
  try {
    await client.request({ method: "eth_sendRawTransaction", params: [raw] });
    return { ok: true };
  } catch (error) {
    const kind = classifyRpcError(error);
    if (broadcastLanded(kind)) return { ok: true };
    return { ok: false, kind, error: errorText(error).slice(0, 500) };
  }
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
