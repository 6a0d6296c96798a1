/**
 * Stamps every request the Node server receives with its socket's peer address (PEER_HEADER,
 * sealed with this process's secret, lib/web/http/client-ip.ts), overwriting whatever the client sent
 * under that name. Route handlers get a Web Request without the socket; this is how the address
 * reaches them. instrumentation.ts installs it once per server process.
 */

import http from "node:http";
import https from "node:https";
import { PEER_HEADER, sealedPeer } from "./client-ip";

const INSTALLED = Symbol.for("bsc-pay.peer-stamp-installed");
type Patched = { [INSTALLED]?: true };

export function installPeerStamp(): void {
  for (const server of [http.Server, https.Server]) {
    const proto = server.prototype as unknown as Patched & { emit: (event: string | symbol, ...args: unknown[]) => boolean };
    if (proto[INSTALLED]) continue;
    const emit = proto.emit;
    proto.emit = function stampedEmit(this: unknown, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request" || event === "upgrade") stamp(args[0] as http.IncomingMessage);
      return emit.call(this, event, ...args);
    };
    proto[INSTALLED] = true;
  }
}

export function stamp(req: http.IncomingMessage): void {
  const address = req.socket?.remoteAddress;
  if (address) req.headers[PEER_HEADER] = sealedPeer(address);
  else delete req.headers[PEER_HEADER];
}
