import { createServer, type Server } from "node:http";

/**
 * A JSON-RPC proxy that answers receipts as a node `lagBlocks` behind the one answering
 * everything else would: a receipt whose block is newer than head − lagBlocks comes back null,
 * while eth_getTransactionCount already counts the transaction — what a load-balanced endpoint
 * does (NOTES.md). `refuseRawAs` makes it refuse raw transactions with a node's words meanwhile.
 * `lagMs` lags in time instead: a receipt is answered only `lagMs` after the proxy first saw it
 * exist (Date.now(), so a test that fakes Date simulates minutes at once).
 */
export interface ReceiptLagProxy {
  url: string;
  lagBlocks: number;
  /** Receipts hidden for this long after the proxy first saw them (0: off). */
  lagMs: number;
  /** While set, eth_sendRawTransaction answers this error (e.g. "transaction underpriced"). */
  refuseRawAs: string | null;
  rawRefused: number;
  hiddenReceipts: number;
  close(): Promise<void>;
}

export async function startReceiptLagProxy(target: string, lagBlocks: number): Promise<ReceiptLagProxy> {
  const proxy: ReceiptLagProxy = {
    url: "",
    lagBlocks,
    lagMs: 0,
    refuseRawAs: null,
    rawRefused: 0,
    hiddenReceipts: 0,
    close: async () => {},
  };
  const firstSeen = new Map<string, number>();
  const upstream = async (body: string) =>
    (await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body })).text();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const payload = JSON.parse(body) as { id: number; method: string };
    const answer = (value: object) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: payload.id, ...value }));
    if (payload.method === "eth_sendRawTransaction" && proxy.refuseRawAs) {
      proxy.rawRefused++;
      answer({ error: { code: -32000, message: proxy.refuseRawAs } });
      return;
    }
    const text = await upstream(body);
    if (payload.method === "eth_getTransactionReceipt" && proxy.lagMs > 0) {
      const receipt = (JSON.parse(text) as { result: { transactionHash: string } | null }).result;
      if (receipt) {
        const seen = firstSeen.get(receipt.transactionHash) ?? Date.now();
        firstSeen.set(receipt.transactionHash, seen);
        if (Date.now() - seen < proxy.lagMs) {
          proxy.hiddenReceipts++;
          answer({ result: null });
          return;
        }
      }
    }
    if (payload.method === "eth_getTransactionReceipt" && proxy.lagBlocks > 0) {
      const receipt = (JSON.parse(text) as { result: { blockNumber: string } | null }).result;
      if (receipt) {
        const head = Number(
          (
            JSON.parse(await upstream(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }))) as {
              result: string;
            }
          ).result,
        );
        if (Number(receipt.blockNumber) > head - proxy.lagBlocks) {
          proxy.hiddenReceipts++;
          answer({ result: null });
          return;
        }
      }
    }
    res.writeHead(200, { "content-type": "application/json" }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  proxy.close = () => new Promise((resolve) => server.close(() => resolve()));
  return proxy;
}
