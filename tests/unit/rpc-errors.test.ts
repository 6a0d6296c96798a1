import {
  CallExecutionError,
  getContractError,
  HttpRequestError,
  InternalRpcError,
  InvalidInputRpcError,
  LimitExceededRpcError,
  parseAbi,
  RpcRequestError,
  TimeoutError,
  TransactionExecutionError,
} from "viem";
import { describe, expect, it } from "vitest";
import { classifyRpcError, errorText, isPermanentRefusal, type RpcErrorKind, redactUrls } from "@/lib/engine/chain/rpc-errors";
import { decideFailure, MAX_FORWARD_ATTEMPTS } from "@/lib/engine/forwarding/forward-schedule";

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
  ["anvil before Prague: EIP-7702 not supported (-32003)", nodeSaid(-32003, "Eip7702 is not supported"), "rejected"],
  ["method not found (-32601)", nodeSaid(-32601, "the method eth_gasPrice is not available on this plan"), "rejected"],
  // Unknown answers are transient: they must never cancel a withdrawal or count toward holding a forward.
  ["geth: missing trie node", nodeSaid(-32000, "missing trie node 5c2a3f0e (path ) state 0x5c2a is not available"), "transient"],
  ["provider's own -32000 words", nodeSaid(-32000, "request failed: upstream node 4 unhealthy"), "transient"],
  ["blacklisted (not on the allow-list)", nodeSaid(-32000, "transaction rejected: sender is blacklisted"), "transient"],
  ["nonce too high (a gap: wait)", nodeSaid(-32000, "nonce too high"), "transient"],
  ["an unknown code", nodeSaid(-32099, "something odd"), "transient"],
  [
    "an HTML page from a proxy (HTTP 200)",
    new HttpRequestError({ url: URL_WITH_KEY, body, cause: new SyntaxError("Unexpected token '<', \"<html><bod\"... is not valid JSON") }),
    "transient",
  ],
  [
    "an HTML page whose text says insufficient funds (HTTP 403)",
    new HttpRequestError({ url: URL_WITH_KEY, status: 403, body, details: "<html>insufficient funds</html>" }),
    "transient",
  ],
  ["not an RPC answer at all (the service's own error)", new Error("gas tank holds 0 wei"), "failed"],
  // …but a dropped connection or a pool that timed out is no refusal: it must not count toward holding a forward.
  ["database pool timeout", new Error("timeout exceeded when trying to connect"), "transient"],
  ["database connection dropped", new Error("Connection terminated unexpectedly"), "transient"],
  ["socket reset (code only)", Object.assign(new Error("read failed"), { code: "ECONNRESET" }), "transient"],
  ["connection refused", new Error("connect ECONNREFUSED 127.0.0.1:5432"), "transient"],
  ["broken pipe", new Error("write EPIPE"), "transient"],
  ["socket hang up", new Error("socket hang up"), "transient"],
  ["a busy resource", new Error("the resource is busy; try again"), "transient"],
  ["wrapped: a dropped connection as cause", new Error("could not record", { cause: new Error("Connection terminated") }), "transient"],
  // viem wraps every failed eth_call the same way: the wrapper is no revert, the node's words decide.
  [
    "eth_call: missing trie node (a pruned node)",
    new CallExecutionError(new InvalidInputRpcError(nodeSaid(-32000, "missing trie node 5c2a (path )")), {
      to: "0x0000000000000000000000000000000000000001",
    } as never),
    "transient",
  ],
  [
    "eth_call: execution reverted",
    new CallExecutionError(new InvalidInputRpcError(nodeSaid(-32000, "execution reverted")), {
      to: "0x0000000000000000000000000000000000000001",
    } as never),
    "rejected",
  ],
];

const ERC20 = parseAbi(["function balanceOf(address) view returns (uint256)"]);
/** A readContract failure exactly as viem raises it: getContractError around the node's answer. */
function readFailed(cause: Error) {
  return getContractError(cause as never, {
    abi: ERC20,
    functionName: "balanceOf",
    args: ["0x0000000000000000000000000000000000000001"],
    address: "0x0000000000000000000000000000000000000002",
  });
}

describe("a readContract answered with -32603 (a provider's internal error)", () => {
  it("is transient, though viem calls it ContractFunctionRevertedError 'reverted'", () => {
    for (const answer of [nodeSaid(-32603, "internal error"), new InternalRpcError(nodeSaid(-32603, "internal error"))]) {
      const error = readFailed(answer);
      expect(errorText(error)).toMatch(/reverted/);
      expect(classifyRpcError(error)).toBe("transient");
    }
  });

  it("does not hold a forward at its last attempt", () => {
    const forward = { attempts: MAX_FORWARD_ATTEMPTS - 1, status: "pending" as const };
    expect(decideFailure(forward, classifyRpcError(readFailed(nodeSaid(-32603, "internal error"))))).toMatchObject({ hold: false });
  });

  it("stays rejected when the node itself says the call reverted, with -32603 or code 3", () => {
    expect(classifyRpcError(readFailed(nodeSaid(-32603, "execution reverted")))).toBe("rejected");
    expect(classifyRpcError(readFailed(nodeSaid(-32603, "execution reverted: DemoToken: paused")))).toBe("rejected");
    expect(classifyRpcError(readFailed(nodeSaid(3, "execution reverted: DemoToken: paused")))).toBe("rejected");
  });
});

// Which answers to eth_sendRawTransaction fill the nonce at once (a withdrawal's cancel): only refusals of the bytes.
const permanence: [string, unknown, boolean][] = [
  ["insufficient funds", nodeSaid(-32000, "insufficient funds for gas * price + value"), true],
  ["intrinsic gas too low", nodeSaid(-32000, "intrinsic gas too low"), true],
  ["invalid sender", nodeSaid(-32000, "invalid sender"), true],
  ["exceeds block gas limit", nodeSaid(-32000, "exceeds block gas limit"), true],
  ["missing trie node", nodeSaid(-32000, "missing trie node abc"), false],
  ["method not found on this endpoint", nodeSaid(-32601, "method not found"), false],
  ["invalid params from a proxy", nodeSaid(-32602, "invalid params"), false],
  ["nonce too low (settled by receipt, never here)", nodeSaid(-32000, "nonce too low"), false],
  ["underpriced", nodeSaid(-32000, "replacement transaction underpriced"), false],
  ["HTTP 502", new HttpRequestError({ url: URL_WITH_KEY, status: 502, body, details: "insufficient funds" }), false],
  ["a timeout", new TimeoutError({ url: URL_WITH_KEY, body }), false],
];

describe("a forward meeting an answer nobody classified", () => {
  it("is not counted toward holding it, even at its 8th failure; a known refusal is", () => {
    const forward = { attempts: MAX_FORWARD_ATTEMPTS - 1, status: "pending" as const };
    for (const error of [
      nodeSaid(-32000, "missing trie node abc"),
      nodeSaid(-32000, "upstream unhealthy"),
      new HttpRequestError({ url: URL_WITH_KEY, body, details: "<html>" }),
    ])
      expect(decideFailure(forward, classifyRpcError(error))).toMatchObject({ hold: false, attempts: MAX_FORWARD_ATTEMPTS - 1 });
    expect(decideFailure(forward, classifyRpcError(nodeSaid(3, "execution reverted")))).toEqual({
      hold: true,
      attempts: MAX_FORWARD_ATTEMPTS,
    });
  });
});

describe("permanent refusals of a transaction", () => {
  it.each(permanence)("%s", (_name, error, permanent) => {
    expect(isPermanentRefusal(error)).toBe(permanent);
  });
});

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
    const { serializeError } = await import("@/lib/base/log");
    const error = new HttpRequestError({ url: `${URL_WITH_KEY}?apikey=abc`, status: 503, body, details: "Service Unavailable" });
    const logged = JSON.stringify(serializeError(error));
    expect(logged).toContain("Service Unavailable");
    expect(logged).not.toContain("secretkey");
    expect(logged).not.toContain("apikey=abc");
    expect(logged).not.toContain("0xf86c");
  });

  it("say what the node said, for reasons shown to merchants", async () => {
    const { nodeMessage } = await import("@/lib/engine/chain/rpc-errors");
    expect(nodeMessage(new InternalRpcError(nodeSaid(-32000, "transaction rejected: blacklisted")))).toBe(
      "transaction rejected: blacklisted",
    );
  });
});
