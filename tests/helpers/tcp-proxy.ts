/**
 * A TCP proxy in front of PostgreSQL whose connections can stall the way a network path does:
 * nothing more is relayed either way, and the client's goodbye never reaches the server (the
 * server-side session lives on, holding whatever it held). Connections are told apart by the port
 * their upstream leg uses, which PostgreSQL shows as `client_port` in pg_stat_activity.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  /** The target URL with this proxy's host and port. */
  url: string;
  /** Stalls the connection whose upstream leg has this local port (PostgreSQL's `client_port`). */
  stall(upstreamPort: number): boolean;
  close(): Promise<void>;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const pairs = new Set<{ client: Socket; upstream: Socket; stalled: boolean }>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const pair = { client, upstream, stalled: false };
    pairs.add(pair);
    client.on("data", (chunk) => {
      if (!pair.stalled) upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (!pair.stalled) client.write(chunk);
    });
    const end = () => {
      if (pair.stalled) return; // a stalled path delivers no goodbye
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", () => {});
    upstream.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    stall: (upstreamPort) => {
      for (const pair of pairs) {
        if (pair.upstream.localPort !== upstreamPort) continue;
        pair.stalled = true;
        return true;
      }
      return false;
    },
    close: async () => {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
