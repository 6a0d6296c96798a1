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
 *   rejected         an answer on the allow-list of permanent refusals (a revert, no funds, a bad
 *                    transaction, a method the endpoint lacks): asking again the same way gets the same
 *   failed           not an RPC answer at all (the service's own error): counted like a refusal —
 *                    unless its words say the connection or a pool timed out or dropped (transient)
 *   transient        everything else: no answer, 5xx, an HTML page from a proxy, a lagging node,
 *                    a provider's own -32000 words ("missing trie node", …) — worth retrying as is
 *
 * Unknown answers are transient on purpose (docs/design.md §21): a refusal cancels a withdrawal and
 * counts toward holding a forward, so only words known to mean "never" may say so.
 */

import { errorHeadline, errorText, errorLinks as links, redactUrls } from "../../base/error-text";

// Kept importable from here: every RPC caller already reads its errors through this module.
export { errorHeadline, errorText, redactUrls };

export type RpcErrorKind =
  | "already-known"
  | "nonce-used"
  | "underpriced"
  | "range-too-large"
  | "rate-limited"
  | "transient"
  | "rejected"
  | "failed";

const ALREADY_KNOWN = /already known|known transaction|already imported|alreadyknown|already exists|already in (the )?(mem)?pool/i;
const NONCE_USED = /nonce too low|nonce is too low|oldnonce|nonce has already been used|nonce already used|tx nonce is lower/i;
const UNDERPRICED = /underpriced|gas price too low|fee too low|feetoolow|less than block base fee|fee cap less than|tip needed/i;
const RATE_LIMITED =
  /rate.?limit|too many requests|exceeded its compute units|credits limited|request limit|daily request count|quota|throughput|capacity exceeded|requests per second/i;
const RANGE_TOO_LARGE =
  /limit exceeded|exceeds defined limit|returned more than|more than \d+ results|response size|block range|range \d+ exceeds|range too (large|wide|high)|too many blocks|exceed max(imum)? (block )?range|exceed max topics|too many (logs|results)|log response/i;
/** A call or estimate that executed and failed: the same call fails the same way. */
const REVERTED =
  /execution reverted|\breverted\b|\brevert\b|invalid opcode|vm exception|gas required exceeds allowance|returned no data|stack (underflow|overflow)|invalid jump/i;
/** Refusals of a transaction's bytes that no later broadcast of the same bytes can change. */
const TRANSACTION_REFUSED =
  /insufficient funds|exceeds transaction sender account balance|intrinsic gas too low|invalid sender|invalid signature|exceeds block gas limit|oversized data|transaction type not (supported|valid)|tx type not supported|invalid chain ?id|only replay-protected|max fee per gas higher than|tip higher than fee cap|max priority fee per gas higher than max fee per gas|nonce has max value|max initcode size exceeded/i;
/**
 * viem's names for a call that answered with a revert or nothing at a contract. Not its wrappers
 * (CallExecutionError, ContractFunctionExecutionError): they wrap every failure of a call, a
 * provider's "missing trie node" too.
 */
const REVERT_NAMES = new Set(["ContractFunctionRevertedError", "ContractFunctionZeroDataError", "ExecutionRevertedError"]);
/** Standard JSON-RPC codes for "this endpoint does not do that": method not found, invalid params, not supported. */
const UNSUPPORTED_CODES = new Set([-32601, -32602, -32004]);
/** …and the words nodes use for it (anvil before Prague: "Eip7702 is not supported"; geth: "… does not exist/is not available"). */
const UNSUPPORTED = /\bnot supported\b|\bunsupported\b|method not found|does not exist\/is not available/i;
const TRANSPORT_NAMES = new Set(["HttpRequestError", "TimeoutError", "WebSocketRequestError", "SocketClosedError"]);
/**
 * A failure that is no RPC answer but a connection or pool that timed out or dropped (the
 * database's pool, a socket): asking again may work, so it never counts toward holding a forward.
 */
const CONNECTION_TROUBLE =
  /time(d)? ?out|ETIMEDOUT|ECONNRESET|ECONNREFUSED|EPIPE|EAI_AGAIN|socket hang up|connection terminated|try again/i;
/** -32603 "internal error": the provider failed, whatever viem makes of it (a readContract calls it a revert). */
const INTERNAL_ERROR_CODE = -32603;

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
  // Above MAX_GAS_PRICE nothing was signed: wait for the price to fall, never count it as a failure.
  if (chain.some((e) => e.name === "GasPriceAboveCapError")) return "transient";
  // viem's errors all carry a shortMessage (checked by shape: a second copy of viem would fail instanceof).
  if (!chain.some((e) => typeof e.shortMessage === "string")) {
    // Node's system errors carry their name in a string `code` (ECONNRESET), not always in the message.
    const words = chain.map((e) => `${e.message ?? ""} ${String((e as { code?: unknown }).code ?? "")}`).join(" | ");
    return CONNECTION_TROUBLE.test(words) ? "transient" : "failed";
  }
  if (ALREADY_KNOWN.test(text)) return "already-known";
  if (NONCE_USED.test(text)) return "nonce-used";
  if (UNDERPRICED.test(text)) return "underpriced";
  if (chain.some((e) => e.status === 429 || e.code === 429 || e.code === -32029 || e.code === -32012) || RATE_LIMITED.test(text))
    return "rate-limited";
  // -32005 is "limit exceeded": results/range on Infura and BSC nodes (rate limits say so in words, above).
  if (chain.some((e) => e.code === -32005) || RANGE_TOO_LARGE.test(text)) return "range-too-large";
  // No JSON-RPC answer (a timeout, a 5xx, an HTML page): whatever its body says, the node did not refuse.
  if (chain.some((e) => e.name !== undefined && TRANSPORT_NAMES.has(e.name))) return "transient";
  // viem's getContractError names any failed read "ContractFunctionRevertedError … reverted", a
  // provider's -32603 "internal error" too: there only the node's own words may say it refused.
  if (chain.some((e) => e.code === INTERNAL_ERROR_CODE)) {
    const said = nodeWords(chain);
    return REVERTED.test(said) || TRANSACTION_REFUSED.test(said) || UNSUPPORTED.test(said) ? "rejected" : "transient";
  }
  if (
    REVERTED.test(text) ||
    TRANSACTION_REFUSED.test(text) ||
    UNSUPPORTED.test(text) ||
    chain.some(
      (e) => e.code === 3 || (e.code !== undefined && UNSUPPORTED_CODES.has(e.code)) || (e.name !== undefined && REVERT_NAMES.has(e.name)),
    )
  )
    return "rejected";
  return "transient";
}

/** The words of the chain's JSON-RPC answers (links with a numeric code), not viem's own around them. */
function nodeWords(chain: ReturnType<typeof links>): string {
  return chain
    .filter((e) => typeof e.code === "number")
    .map((e) => (typeof e.shortMessage === "string" ? e.details : e.message) ?? "")
    .join(" | ");
}

/**
 * A node's refusal of a transaction's bytes that no broadcast of the same bytes can change: the
 * only broadcast answer that fills the nonce at once (a withdrawal's cancel). Stricter than
 * "rejected": a method the endpoint lacks, or a proxy's odd code, is not the transaction's fault.
 */
export function isPermanentRefusal(error: unknown): boolean {
  return classifyRpcError(error) === "rejected" && TRANSACTION_REFUSED.test(errorText(error));
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
