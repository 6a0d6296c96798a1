import { NextRequest } from "next/server";
import { PEER_HEADER, sealedPeer } from "@/lib/web/http/client-ip";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface CallOptions {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  params?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export const SITE = "http://localhost:3000";
let calls = 0;

/** Calls a route handler in-process with a real Request, as Next.js would. */
export async function call<T = any>(handler: Handler, options: CallOptions = {}): Promise<CallResult<T>> {
  const { method = "GET", path = "/", headers = {}, body, params = {} } = options;
  // Each call comes from its own client address unless the test names one (per-address limits).
  const client = fromClient(`10.${++calls % 250}.${(calls >> 8) % 250}.${(calls >> 16) % 250}`);
  const init: { method: string; headers: Record<string, string>; body?: string } = { method, headers: { ...client, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers["content-type"] ??= "application/json";
  }
  const response = await handler(new NextRequest(new URL(path, SITE), init), { params: Promise.resolve(params) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** Headers of a request whose socket's peer is `address`, as the server stamps it (lib/web/http/peer-address.ts). */
export const fromClient = (address: string) => ({ [PEER_HEADER]: sealedPeer(address) });

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
