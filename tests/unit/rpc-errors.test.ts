import { HttpRequestError, InternalRpcError, LimitExceededRpcError, RpcRequestError, TimeoutError, TransactionExecutionError } from "viem";
import { describe, expect, it } from "vitest";
import { classifyRpcError, errorText, type RpcErrorKind, redactUrls } from "@/lib/chain/rpc-errors";

// Hex with "502", "429" and "32005" in it: a request body must never decide the classification.
const body = { method: "eth_sendRawTransaction", params: ["0xf86c0a8502540be400825208945029429032005"] };
const URL_WITH_KEY = "https://bsc-mainnet.provider.example/v3/9f2c1a7be0d84b55a1c0secretkey";

/** A JSON-RPC error answer as viem raises it from a node, wrapped the way the public client wraps it. */
function nodeSaid(code: number, message: string) {
  return new RpcRequestError({ url: URL_WITH_KEY, body, error: { code, message } });
}

// Messages copied from real providers and clients (geth/bsc-geth, erigon, nethermind, anvil,
// Infura, Alchemy, QuickNode, BSC public dataseeds).
const table: [string, unknown, RpcErrorKind][] = [
  ["geth: already known", nodeSaid(-32000, "already known"), "already-known"],
  ["besu: known transaction", nodeSaid(-32000, "Known transaction"), "already-known"],
  ["erigon: ALREADY_EXISTS", nodeSaid(-32000, "ALREADY_EXISTS: already known"), "already-known"],
  ["nethermind: AlreadyKnown", nodeSaid(-32010, "AlreadyKnown"), "already-known"],
  ["anvil: already imported", nodeSaid(-32003, "transaction already imported"), "already-known"],
  ["geth: nonce too low", nodeSaid(-32000, "nonce too low: next nonce 7, tx nonce 5"), "nonce-used"],
  ["nethermind: OldNonce", nodeSaid(-32010, "OldNonce"), "nonce-used"],
  ["geth: replacement underpriced", nodeSaid(-32000, "replacement transaction underpriced"), "underpriced"],
  ["geth: transaction underpriced", nodeSaid(-32000, "transaction underpriced: tip needed 1000000000, tip permitted 0"), "underpriced"],
  ["base fee", nodeSaid(-32000, "max fee per gas less than block base fee: address 0xab, maxFeePerGas: 1 baseFee: 7"), "underpriced"],
  [
    "infura: 10000 results (-32005)",
    nodeSaid(-32005, "query returned more than 10000 results. Try with this block range [0xBDE5F8, 0x102DBCC]."),
    "range-too-large",
  ],
  ["bsc dataseed: limit exceeded (-32005)", nodeSaid(-32005, "limit exceeded"), "range-too-large"],
  ["viem LimitExceededRpcError", new LimitExceededRpcError(nodeSaid(-32005, "limit exceeded")), "range-too-large"],
  [
    "alchemy: log response size",
    nodeSaid(-32602, "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range"),
    "range-too-large",
  ],
  ["alchemy: 500 block range", nodeSaid(-32600, "You can make eth_getLogs requests with up to a 500 block range."), "range-too-large"],
  ["infura: range exceeds limit", nodeSaid(-32602, "range 1000000 exceeds limit of 10000"), "range-too-large"],
  ["bsc: exceed maximum block range", nodeSaid(-32000, "exceed maximum block range: 5000"), "range-too-large"],
  ["bsc: exceed max topics", nodeSaid(-32000, "exceed max topics"), "range-too-large"],
  ["candle: block range too high", nodeSaid(-32600, "block range too high"), "range-too-large"],
  ["infura: rate limited (-32005)", nodeSaid(-32005, "daily request count exceeded, request rate limited"), "rate-limited"],
  ["alchemy: 429 compute units", nodeSaid(429, "Your app has exceeded its compute units per second capacity."), "rate-limited"],
  ["quicknode: credits limited", nodeSaid(-32012, "credits limited to 6000/sec"), "rate-limited"],
  ["HTTP 429", new HttpRequestError({ url: URL_WITH_KEY, status: 429, body, details: "Too Many Requests" }), "rate-limited"],
  ["HTTP 502", new HttpRequestError({ url: URL_WITH_KEY, status: 502, body, details: "Bad Gateway" }), "transient"],
  ["connection refused", new HttpRequestError({ url: URL_WITH_KEY, body, details: "fetch failed" }), "transient"],
  ["timeout", new TimeoutError({ url: URL_WITH_KEY, body }), "transient"],
  ["internal error", new InternalRpcError(nodeSaid(-32603, "internal error")), "transient"],
  ["lagging node", nodeSaid(-32000, "header not found"), "transient"],
  ["insufficient funds", nodeSaid(-32000, "insufficient funds for gas * price + value: balance 0, tx cost 21000"), "rejected"],
  ["intrinsic gas", nodeSaid(-32000, "intrinsic gas too low"), "rejected"],
  ["exceeds block gas limit", nodeSaid(-32000, "exceeds block gas limit"), "rejected"],
  ["revert", nodeSaid(3, "execution reverted: DemoToken: transfer amount exceeds balance"), "rejected"],
  ["invalid sender", nodeSaid(-32000, "invalid sender"), "rejected"],
];

describe("RPC error classifier", () => {
  it.each(table)("%s", (_name, error, kind) => {
    expect(classifyRpcError(error)).toBe(kind);
  });

  it("reads through viem's wrappers to the node's words", () => {
    const wrapped = new TransactionExecutionError(nodeSaid(-32000, "nonce too low") as never, { account: undefined } as never);
    expect(classifyRpcError(wrapped)).toBe("nonce-used");
  });

  it("never carries the request body or the URL's key in its text", () => {
    for (const [, error] of table) {
      const text = errorText(error);
      expect(text).not.toContain("0xf86c");
      expect(text).not.toContain("secretkey");
    }
  });

  it("redacts credentials, paths and queries of URLs, keeping scheme and host", () => {
    expect(redactUrls(`failed: ${URL_WITH_KEY}?apikey=abc and wss://user:pw@ws.example.org/key/123 done`)).toBe(
      "failed: https://bsc-mainnet.provider.example/… and wss://ws.example.org/… done",
    );
  });
});

describe("logged errors", () => {
  it("keep the node's words but never a provider key, URL path or request body", async () => {
    const { serializeError } = await import("@/lib/log");
    const error = new HttpRequestError({ url: `${URL_WITH_KEY}?apikey=abc`, status: 503, body, details: "Service Unavailable" });
    const logged = JSON.stringify(serializeError(error));
    expect(logged).toContain("Service Unavailable");
    expect(logged).not.toContain("secretkey");
    expect(logged).not.toContain("apikey=abc");
    expect(logged).not.toContain("0xf86c");
  });

  it("say what the node said, for reasons shown to merchants", async () => {
    const { nodeMessage } = await import("@/lib/chain/rpc-errors");
    expect(nodeMessage(new InternalRpcError(nodeSaid(-32000, "transaction rejected: blacklisted")))).toBe(
      "transaction rejected: blacklisted",
    );
  });
});
