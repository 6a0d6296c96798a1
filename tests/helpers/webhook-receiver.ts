import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver does with the n-th request (0-based): answer a status, or never answer. */
export type Behaviour = (n: number, request: ReceivedWebhook) => number | "hang";

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** TCP connections accepted, also those that never sent a full request. */
  connections(): number;
  behave(next: Behaviour): void;
  /** Resolves once `count` requests have arrived (throws after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** A real HTTP server on a free loopback port that records every webhook it is sent. */
export async function startWebhookReceiver(behaviour: Behaviour = () => 200): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const hanging: ServerResponse[] = [];
  let current = behaviour;
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      const n = received.push(request) - 1;
      const answer = current(n, request);
      if (answer === "hang") hanging.push(res);
      else res.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "no");
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    connections: () => connections,
    behave(next) {
      current = next;
    },
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} webhooks`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received.slice(0, count);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
