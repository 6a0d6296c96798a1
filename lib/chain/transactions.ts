import { keccak256, type Hex, type PublicClient, type TransactionReceipt } from "viem";

/**
 * Broadcasting a signed transaction that may already be known to the node. Errors that mean
 * "this exact transaction, or its nonce, is already in" are not failures: the caller checks the
 * receipt by hash.
 */
const ALREADY_IN = /already known|known transaction|nonce too low|already imported|replacement transaction underpriced|AlreadyKnown/i;

export function hashOfRaw(raw: Hex): Hex {
  return keccak256(raw);
}

export async function broadcast(client: PublicClient, raw: Hex): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    await client.request({ method: "eth_sendRawTransaction", params: [raw] });
    return { ok: true };
  } catch (error) {
    const message = errorText(error);
    if (ALREADY_IN.test(message)) return { ok: true };
    return { ok: false, error: message.slice(0, 500) };
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

/**
 * What a node or transport said, without viem's long message (which repeats the request body:
 * a raw transaction's hex would make text matching unreliable).
 */
export function errorText(error: unknown): string {
  const e = error as { shortMessage?: string; details?: string; message?: string };
  return [e.shortMessage, e.details].filter(Boolean).join(" | ") || e.message || String(error);
}

const TRANSPORT_ERRORS = new Set(["HttpRequestError", "TimeoutError", "WebSocketRequestError", "SocketClosedError"]);

/**
 * True when the request never got a node's answer (network, timeout, HTTP failure, rate limit):
 * worth retrying as is. A node's own JSON-RPC error answer is not transient.
 */
export function isTransientRpcError(error: unknown): boolean {
  for (let e = error as { name?: string; cause?: unknown; code?: number } | undefined; e; e = e.cause as typeof e) {
    if (e.name && TRANSPORT_ERRORS.has(e.name)) return true;
    if (e.code === 429 || e.code === -32005) return true;
  }
  return /rate limit|too many requests/i.test(errorText(error));
}
