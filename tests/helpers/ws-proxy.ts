/**
 * A WebSocket proxy in front of anvil's own WebSocket endpoint that misbehaves like real
 * providers: it can drop every open socket, let the open ones go silent (still answering pings,
 * relaying nothing), stall them at the TCP level (nothing read or written: no pongs either), or
 * accept new sockets and close them at once (a reconnect storm). While `fault` is set, new sockets
 * suffer it: a stall from the start, the subscription's confirmation swallowed, or eth_subscribe
 * answered with a JSON-RPC error as a node without subscriptions does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import WebSocket, { WebSocketServer } from "ws";

export type WsFault = "stall" | "swallow-subscribe" | "refuse-subscribe";

export interface WsProxy {
  url: string;
  /** Sockets accepted since start. */
  accepted: number;
  /** Accept and close at once this many of the next sockets. */
  refuseNext: number;
  /** What every socket accepted from now on suffers (null: relay faithfully). */
  fault: WsFault | null;
  /** Drops every open socket. */
  drop(): void;
  /** The sockets open now relay nothing more from the node (pings still answered); new ones work. */
  silenceOpen(): void;
  /** The sockets open now stop reading and writing altogether (no pongs); new ones work. */
  stallOpen(): void;
  close(): Promise<void>;
}

interface Pair {
  client: WebSocket;
  raw: Socket;
  upstream: WebSocket | null;
  silent: boolean;
}

export async function startWsProxy(target: string): Promise<WsProxy> {
  const upstreamUrl = target.replace(/^http/, "ws");
  const server: Server = createServer();
  const wss = new WebSocketServer({ server });
  const open = new Set<Pair>();
  const stall = (pair: Pair) => {
    pair.silent = true;
    pair.raw.pause(); // pings stay unread in the kernel: ws never sees them, so never answers
  };
  const proxy: WsProxy = {
    url: "",
    accepted: 0,
    refuseNext: 0,
    fault: null,
    drop: () => {
      for (const pair of open) {
        pair.client.terminate();
        pair.upstream?.terminate();
      }
      open.clear();
    },
    silenceOpen: () => {
      for (const pair of open) pair.silent = true;
    },
    stallOpen: () => {
      for (const pair of open) stall(pair);
    },
    close: async () => {
      proxy.drop();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  wss.on("connection", (client, request) => {
    proxy.accepted++;
    if (proxy.refuseNext > 0) {
      proxy.refuseNext--;
      client.close();
      return;
    }
    const pair: Pair = { client, raw: request.socket, upstream: null, silent: false };
    open.add(pair);
    const end = () => {
      open.delete(pair);
      client.terminate();
      pair.upstream?.terminate();
    };
    client.on("close", end);
    client.on("error", end);
    if (proxy.fault === "stall") {
      stall(pair);
      return;
    }
    const upstream = new WebSocket(upstreamUrl);
    pair.upstream = upstream;
    const pending: string[] = [];
    /** Ids of eth_subscribe requests whose answer is to be lost on the way back. */
    const swallowed = new Set<unknown>();
    upstream.on("open", () => {
      for (const message of pending.splice(0)) upstream.send(message);
    });
    client.on("message", (data) => {
      const text = data.toString();
      const request = parse(text);
      if (request?.method === "eth_subscribe" && proxy.fault === "refuse-subscribe") {
        const error = { code: -32601, message: "the method eth_subscribe does not exist/is not available" };
        client.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, error }));
        return;
      }
      if (request?.method === "eth_subscribe" && proxy.fault === "swallow-subscribe") swallowed.add(request.id);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else pending.push(text);
    });
    upstream.on("message", (data) => {
      const text = data.toString();
      if (swallowed.size > 0 && swallowed.delete(parse(text)?.id)) return;
      if (!pair.silent && client.readyState === WebSocket.OPEN) client.send(text);
    });
    upstream.on("close", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  proxy.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

function parse(text: string): { id?: unknown; method?: string } | null {
  try {
    return JSON.parse(text) as { id?: unknown; method?: string };
  } catch {
    return null;
  }
}
