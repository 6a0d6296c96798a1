/**
 * Who the client is, for per-client limits (docs/design.md §21). Route handlers do not see the socket,
 * and Next.js fills X-Forwarded-For with the socket's address only when the request has none — so
 * the header is whatever a direct client wrote. Instead the server stamps every request with its
 * socket's peer in PEER_HEADER (lib/web/http/peer-address.ts, installed by instrumentation.ts), sealed
 * with a per-process secret so a client cannot forge it (a forged or missing stamp reads "unknown").
 *
 * - TRUSTED_PROXY_HOPS=0 (default): the socket's peer; X-Forwarded-For is ignored.
 * - TRUSTED_PROXY_HOPS=n: the n-th entry from the right of X-Forwarded-For (each trusted proxy
 *   appends the address it saw). With fewer entries than n, the leftmost (every entry was then
 *   written by a trusted proxy); with no header at all, the socket's peer.
 *
 * Limits key IPv6 clients by their /64 (clientKey): one subscriber usually holds a whole /64.
 */

import { getConfig } from "../../base/config";

export const PEER_HEADER = "x-bsc-pay-peer";
const SEAL_KEY = Symbol.for("bsc-pay.peer-seal");
type Holder = { [SEAL_KEY]?: string };

/** This process's secret for PEER_HEADER; made on first use. */
export function peerSeal(): string {
  const holder = globalThis as Holder;
  holder[SEAL_KEY] ??= `${crypto.randomUUID()}${crypto.randomUUID()}`.replaceAll("-", "");
  return holder[SEAL_KEY];
}

/** The value the server stamps for a socket peer (tests stamp their own requests with it). */
export function sealedPeer(address: string): string {
  return `${peerSeal()} ${address}`;
}

/** The socket's peer as stamped by this process, or null when the stamp is missing or forged. */
function socketPeer(headers: Headers): string | null {
  const [seal, address] = (headers.get(PEER_HEADER) ?? "").split(" ");
  return seal === peerSeal() && address ? address : null;
}

/** The client's address (see the module comment), normalised; "unknown" when there is none. */
export function clientAddress(headers: Headers, hops = getConfig().trustedProxyHops): string {
  if (hops > 0) {
    const chain = (headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    const picked = chain.length >= hops ? chain[chain.length - hops] : chain[0];
    if (picked) return normalizeAddress(picked);
  }
  const peer = socketPeer(headers);
  return peer ? normalizeAddress(peer) : "unknown";
}

/** The key per-client limits count under: the address, or an IPv6 address's /64. */
export function clientKey(headers: Headers, hops?: number): string {
  return limitKey(clientAddress(headers, hops));
}

export function limitKey(address: string): string {
  const groups = ipv6Groups(address);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : address;
}

/** Brackets, a port, a zone and the IPv4-mapped prefix off; lower case; at most 64 characters. */
export function normalizeAddress(raw: string): string {
  let address = raw.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed?.[1]) address = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.replace(/:\d+$/, "");
  address = address.replace(/%.*$/, "");
  const mapped = /^(?:::|(?:0{1,4}:){5})ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped?.[1]) address = mapped[1];
  return address.slice(0, 64);
}

/** An IPv6 address as its eight groups (no leading zeros), or null when it is not one. */
function ipv6Groups(address: string): string[] | null {
  if (!address.includes(":") || !/^[0-9a-f:.]+$/.test(address)) return null;
  let text = address;
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return null;
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const part = (s: string | undefined) => (s ? s.split(":") : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16).toString(16));
}
