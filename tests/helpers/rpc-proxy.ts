import { createServer, type Server } from "node:http";

/**
 * A small JSON-RPC proxy in front of anvil that misbehaves like real providers: it can fail a
 * share of requests (before forwarding, or after forwarding with the answer lost) or all of them
 * (an outage), refuse eth_getLogs ranges wider than a limit, and refuse a method for good. It
 * records the eth_getLogs ranges it served.
 */
export interface ProxyOptions {
  /** Fail every n-th request (n ≥ 2); 0 = never. */
  failEvery?: number;
  /** Refuse eth_getLogs spanning more than this many blocks. */
  maxLogRange?: number;
  /** Refuse eth_getLogs asking for more than one contract over any range containing this block. */
  splitContractsAtBlock?: number;
  /** Refuse every eth_getLogs over a range containing this block, however small. */
  refuseLogsAtBlock?: number;
  /** Refuse the next n eth_sendRawTransaction for good (as a node refuses a transaction). */
  refuseRawTransactions?: number;
  /**
   * What the refusal says: "invalid sender", a refusal for good (the default); "transaction
   * underpriced" (which senders take as landed); a provider's own -32000 words nobody classified
   * ("missing trie node"); or an HTML error page from a proxy in front of the node.
   */
  refuseRawTransactionsAs?: "rejected" | "underpriced" | "missing-trie-node" | "html";
  /** Answer eth_gasPrice with this many wei (a compromised or misrouted provider). */
  gasPriceWei?: bigint;
  /** An outage: every request is answered 502 (retry at once), nothing reaches the node. */
  down?: boolean;
  /** Refuse this method for good, as a provider whose plan lacks it (-32601): a failure that repeats. */
  refuseMethod?: string;
  /**
   * Answer every eth_call with no data ("0x"), as a node does for an address without code: a
   * token's contract asked on the wrong network. viem then says "The contract function "balanceOf"
   * returned no data ("0x")" — text no page may show.
   */
  emptyCalls?: boolean;
  /**
   * A node that learns of each block this long after the proxy first heard of it (an HTTP endpoint
   * behind the WebSocket one): eth_blockNumber answers the newest block it "has", and eth_getLogs
   * answers no logs for blocks past that — what a lagging node says of a block it has not seen.
   */
  headLagMs?: number;
}

export interface RpcProxy {
  url: string;
  /** With headLagMs: the newest block this lagging node has served so far. */
  servedHead: number;
  requests: number;
  failures: number;
  logRanges: [number, number][];
  refusedLogs: number;
  /** Raw transactions answered with a refusal (refuseRawTransactions). */
  refusedRaw: number;
  options: ProxyOptions;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string, options: ProxyOptions = {}): Promise<RpcProxy> {
  const proxy: RpcProxy = {
    url: "",
    servedHead: -1,
    requests: 0,
    failures: 0,
    logRanges: [],
    refusedLogs: 0,
    refusedRaw: 0,
    options,
    close: async () => {},
  };
  /** When the proxy first heard of each block (blocks already there at the first ask count as old). */
  const firstHeard = new Map<number, number>();
  const laggingHead = async (lagMs: number): Promise<number> => {
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    });
    const head = Number(((await upstream.json()) as { result: string }).result);
    const now = Date.now();
    const known = firstHeard.size === 0 ? head : Math.max(...firstHeard.keys());
    if (firstHeard.size === 0) firstHeard.set(head, 0);
    for (let block = known + 1; block <= head; block++) firstHeard.set(block, now);
    for (let block = head; block > proxy.servedHead; block--) {
      if ((firstHeard.get(block) ?? 0) <= now - lagMs) {
        proxy.servedHead = block;
        break;
      }
    }
    return proxy.servedHead;
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const n = ++proxy.requests;
    const failing = proxy.options.failEvery ? n % proxy.options.failEvery === 0 : false;
    const payload = JSON.parse(body) as { id: number; method: string; params: [{ fromBlock: string; toBlock: string }] };
    if (proxy.options.down) {
      proxy.failures++;
      // Retry-After: 0, or viem's own retries (with backoff) take a second of each failing call.
      res.writeHead(502, { "retry-after": "0" }).end("bad gateway");
      return;
    }
    if (failing && n % 2 === 0) {
      proxy.failures++;
      res.writeHead(502).end("bad gateway");
      return;
    }
    const answerResult = (result: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: payload.id, result }));
    const answerError = (code: number, message: string) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: payload.id, error: { code, message } }));
    if (payload.method === "eth_getLogs") {
      const from = Number(payload.params[0].fromBlock);
      const to = Number(payload.params[0].toBlock);
      const addresses = ([] as string[]).concat((payload.params[0] as { address?: string | string[] }).address ?? []);
      const covers = (block?: number) => block !== undefined && from <= block && block <= to;
      const { maxLogRange, splitContractsAtBlock, refuseLogsAtBlock } = proxy.options;
      if (
        (maxLogRange && to - from + 1 > maxLogRange) ||
        (covers(splitContractsAtBlock) && addresses.length > 1) ||
        covers(refuseLogsAtBlock)
      ) {
        proxy.refusedLogs++;
        answerError(-32005, "query returned more than 10000 results; limit exceeded");
        return;
      }
    }
    if (proxy.options.headLagMs !== undefined && payload.method === "eth_blockNumber") {
      answerResult(`0x${(await laggingHead(proxy.options.headLagMs)).toString(16)}`);
      return;
    }
    if (proxy.options.headLagMs !== undefined && payload.method === "eth_getLogs" && Number(payload.params[0].toBlock) > proxy.servedHead) {
      answerResult([]);
      return;
    }
    if (payload.method === "eth_call" && proxy.options.emptyCalls) {
      answerResult("0x");
      return;
    }
    if (payload.method === proxy.options.refuseMethod) {
      answerError(-32601, `the method ${payload.method} is not available on this plan`);
      return;
    }
    if (payload.method === "eth_gasPrice" && proxy.options.gasPriceWei !== undefined) {
      answerResult(`0x${proxy.options.gasPriceWei.toString(16)}`);
      return;
    }
    if (payload.method === "eth_sendRawTransaction" && (proxy.options.refuseRawTransactions ?? 0) > 0) {
      proxy.options.refuseRawTransactions!--;
      proxy.refusedRaw++;
      const as = proxy.options.refuseRawTransactionsAs ?? "rejected";
      if (as === "html") {
        res.writeHead(200, { "content-type": "text/html" }).end("<html><body><h1>Access denied</h1></body></html>");
        return;
      }
      answerError(
        -32000,
        as === "underpriced"
          ? "transaction underpriced"
          : as === "missing-trie-node"
            ? "missing trie node 5c2a3f0e (path ) state 0x5c2a3f0e is not available"
            : "invalid sender",
      );
      return;
    }
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
    const text = await upstream.text();
    if (payload.method === "eth_getLogs" && !text.includes('"error"')) {
      proxy.logRanges.push([Number(payload.params[0].fromBlock), Number(payload.params[0].toBlock)]);
    }
    if (failing) {
      proxy.failures++; // forwarded, but the answer is lost on the way back
      res.destroy();
      return;
    }
    res.writeHead(upstream.status, { "content-type": "application/json" }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.close = () => new Promise((resolve) => server.close(() => resolve()));
  return proxy;
}
