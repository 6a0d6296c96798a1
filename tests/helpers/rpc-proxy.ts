import { createServer, type Server } from "node:http";

/**
 * A small JSON-RPC proxy in front of anvil that misbehaves like real providers: it can fail a
 * share of requests (before forwarding, or after forwarding with the answer lost) and refuse
 * eth_getLogs ranges wider than a limit. It records the eth_getLogs ranges it served.
 */
export interface ProxyOptions {
  /** Fail every n-th request (n ≥ 2); 0 = never. */
  failEvery?: number;
  /** Refuse eth_getLogs spanning more than this many blocks. */
  maxLogRange?: number;
}

export interface RpcProxy {
  url: string;
  requests: number;
  failures: number;
  logRanges: [number, number][];
  options: ProxyOptions;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string, options: ProxyOptions = {}): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: "", requests: 0, failures: 0, logRanges: [], options, close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const n = ++proxy.requests;
    const failing = proxy.options.failEvery ? n % proxy.options.failEvery === 0 : false;
    const payload = JSON.parse(body) as { id: number; method: string; params: [{ fromBlock: string; toBlock: string }] };
    if (failing && n % 2 === 0) {
      proxy.failures++;
      res.writeHead(502).end("bad gateway");
      return;
    }
    if (payload.method === "eth_getLogs" && proxy.options.maxLogRange) {
      const from = Number(payload.params[0].fromBlock);
      const to = Number(payload.params[0].toBlock);
      if (to - from + 1 > proxy.options.maxLogRange) {
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({ jsonrpc: "2.0", id: payload.id, error: { code: -32005, message: "query returned more than 10000 results; limit exceeded" } }),
        );
        return;
      }
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
