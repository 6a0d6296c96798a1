import { createServer, type Server } from "node:http";

/**
 * A JSON-RPC proxy that springs on the n-th eth_sendRawTransaction it sees, so a test can kill the
 * sending process at that very moment:
 *   before  the node never hears of the transaction (a crash between recording and broadcasting)
 *   after   the node takes it, and the sender never hears back (a crash right after the broadcast)
 * Either way the sender's request is left unanswered. Everything else passes through.
 */
export interface RawTransactionTrap {
  url: string;
  arm(at: number, mode: "before" | "after"): Promise<void>;
  disarm(): void;
  close(): Promise<void>;
}

export async function startRawTransactionTrap(target: string): Promise<RawTransactionTrap> {
  let armed: { at: number; mode: "before" | "after"; seen: number; spring: () => void } | null = null;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const { method } = JSON.parse(body) as { method: string };
    if (method === "eth_sendRawTransaction" && armed && ++armed.seen === armed.at) {
      const { mode, spring } = armed;
      armed = null;
      if (mode === "after") await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
      spring(); // the answer never comes: the test kills the sender now
      return;
    }
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
    res.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    arm: (at, mode) => new Promise<void>((spring) => (armed = { at, mode, seen: 0, spring })),
    disarm: () => (armed = null),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
