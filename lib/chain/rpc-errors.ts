/**
 * One reading of what an RPC failure means, for every caller (scanner, broadcasts, withdrawal
 * confirmer, gap fillers). Pure: it looks only at the error viem threw — names, codes, HTTP
 * status and the node's own words — never at viem's long `message`, which repeats the request
 * body (a raw transaction's hex holds any digits) and the URL (provider keys live in its path).
 *
 *   already-known    this exact transaction is already in the node's pool or chain
 *   nonce-used       the nonce was taken (by this transaction, mined, or by another one)
 *   underpriced      a transaction with this nonce is pending at a better price, or the price is below the floor
 *   range-too-large  eth_getLogs asked for too many blocks or results
 *   rate-limited     the provider throttles us
 *   transient        no answer, or a failure worth retrying as is (timeouts, 5xx, lagging node)
 *   rejected         the node refused the request for good (revert, no funds, bad transaction)
 */

import { errorHeadline, errorText, errorLinks as links, redactUrls } from "../error-text";

// Kept importable from here: every RPC caller already reads its errors through this module.
export { errorHeadline, errorText, redactUrls };

export type RpcErrorKind = "already-known" | "nonce-used" | "underpriced" | "range-too-large" | "rate-limited" | "transient" | "rejected";

const ALREADY_KNOWN = /already known|known transaction|already imported|alreadyknown|already exists|already in (the )?(mem)?pool/i;
const NONCE_USED = /nonce too low|nonce is too low|oldnonce|nonce has already been used|nonce already used|tx nonce is lower/i;
const UNDERPRICED = /underpriced|gas price too low|fee too low|feetoolow|less than block base fee|fee cap less than|tip needed/i;
const RATE_LIMITED =
  /rate.?limit|too many requests|exceeded its compute units|credits limited|request limit|daily request count|quota|throughput|capacity exceeded|requests per second/i;
const RANGE_TOO_LARGE =
  /limit exceeded|exceeds defined limit|returned more than|more than \d+ results|response size|block range|range \d+ exceeds|range too (large|wide|high)|too many blocks|exceed max(imum)? (block )?range|exceed max topics|too many (logs|results)|log response/i;
const TRANSIENT =
  /timeout|timed out|econnreset|econnrefused|enotfound|socket hang up|socket closed|fetch failed|bad gateway|service unavailable|gateway timeout|header not found|unknown block|internal error|temporarily unavailable|try again/i;
const TRANSPORT_NAMES = new Set(["HttpRequestError", "TimeoutError", "WebSocketRequestError", "SocketClosedError"]);

/** What the node itself said (the innermost `details`), for reasons shown to merchants. */
export function nodeMessage(error: unknown): string {
  const details = links(error)
    .map((link) => link.details)
    .filter((d): d is string => Boolean(d));
  return redactUrls(details.at(-1) ?? errorHeadline(error));
}

export function classifyRpcError(error: unknown): RpcErrorKind {
  const chain = links(error);
  const text = errorText(error);
  if (ALREADY_KNOWN.test(text)) return "already-known";
  if (NONCE_USED.test(text)) return "nonce-used";
  if (UNDERPRICED.test(text)) return "underpriced";
  if (chain.some((e) => e.status === 429 || e.code === 429 || e.code === -32029 || e.code === -32012) || RATE_LIMITED.test(text))
    return "rate-limited";
  // -32005 is "limit exceeded": results/range on Infura and BSC nodes (rate limits say so in words, above).
  if (chain.some((e) => e.code === -32005) || RANGE_TOO_LARGE.test(text)) return "range-too-large";
  if (
    chain.some((e) => e.name !== undefined && TRANSPORT_NAMES.has(e.name)) ||
    chain.some((e) => e.code === -32603) ||
    TRANSIENT.test(text)
  ) {
    return "transient";
  }
  return "rejected";
}

/** Worth retrying later as is: the request may succeed unchanged. */
export function isRetryable(kind: RpcErrorKind): boolean {
  return kind === "transient" || kind === "rate-limited";
}

/**
 * A broadcast whose answer means "this transaction, or one with its nonce, is already in": not a
 * failure; whoever sent it checks the receipt (or the nonce) later.
 */
export function broadcastLanded(kind: RpcErrorKind): boolean {
  return kind === "already-known" || kind === "nonce-used" || kind === "underpriced";
}

/** What a public page may say about an RPC failure: its kind, never its text. */
export function publicRpcProblem(kind: RpcErrorKind): string {
  switch (kind) {
    case "rate-limited":
      return "the RPC provider is rate limiting requests";
    case "range-too-large":
      return "the RPC provider refuses the log query size";
    case "transient":
      return "the RPC endpoint is unreachable or failing";
    default:
      return "the RPC endpoint refused a request";
  }
}
