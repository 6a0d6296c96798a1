/**
 * A WebSocket proxy in front of anvil's own WebSocket endpoint that misbehaves like real
 * providers: it can drop every open socket, let the open ones go silent (still answering pings,
 * relaying nothing), or accept new sockets and close them at once (a reconnect storm).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket, { WebSocketServer } from "ws";

export interface WsProxy {
  url: string;
  /** Sockets accepted since start. */
  accepted: number;
  /** Accept and close at once this many of the next sockets. */
  refuseNext: number;
  /** Drops every open socket. */
  drop(): void;
  /** The sockets open now relay nothing more from the node (pings still answered); new ones work. */
  silenceOpen(): void;
  close(): Promise<void>;
}

export async function startWsProxy(target: string): Promise<WsProxy> {
  const upstreamUrl = target.replace(/^http/, "ws");
  const server: Server = createServer();
  const wss = new WebSocketServer({ server });
  const open = new Set<{ client: WebSocket; upstream: WebSocket; silent: boolean }>();
  const proxy: WsProxy = {
    url: "",
    accepted: 0,
    refuseNext: 0,
    drop: () => {
      for (const pair of open) {
        pair.client.terminate();
        pair.upstream.terminate();
      }
      open.clear();
    },
    silenceOpen: () => {
      for (const pair of open) pair.silent = true;
    },
    close: async () => {
      proxy.drop();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  wss.on("connection", (client) => {
    proxy.accepted++;
    if (proxy.refuseNext > 0) {
      proxy.refuseNext--;
      client.close();
      return;
    }
    const upstream = new WebSocket(upstreamUrl);
    const pair = { client, upstream, silent: false };
    open.add(pair);
    const pending: WebSocket.RawData[] = [];
    upstream.on("open", () => {
      for (const message of pending.splice(0)) upstream.send(message.toString());
    });
    client.on("message", (message) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(message.toString());
      else pending.push(message);
    });
    upstream.on("message", (message) => {
      if (!pair.silent && client.readyState === WebSocket.OPEN) client.send(message.toString());
    });
    const end = () => {
      open.delete(pair);
      client.terminate();
      upstream.terminate();
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  proxy.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
