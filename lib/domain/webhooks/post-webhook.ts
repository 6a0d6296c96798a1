import type { LookupAddress } from "node:dns";
import { Resolver } from "node:dns/promises";
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { isNonPublicAddress } from "./address-guard";
import { refuseTarget } from "./webhook-url";

export const DELIVERY_TIMEOUT_MS = 10_000;
/** What we read of a receiver's answer before hanging up: its status is all that counts. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PostResult {
  /** 2xx: delivered. */
  ok: boolean;
  statusCode: number | null;
  /** Why it did not count, in words the merchant can act on (never our internals). */
  error: string | null;
}

export class TargetRefused extends Error {}

/**
 * POSTs one webhook. No redirect is followed (a 3xx is a failed attempt), the whole exchange is
 * cut off after DELIVERY_TIMEOUT_MS, and unless private targets are allowed the address the name
 * resolves to *at connection time* must be public — checked inside the socket's own lookup, so a
 * DNS answer that changes between a check and the connect (rebinding) cannot slip through.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<PostResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ ok: false, statusCode: null, error: "the webhook URL is not a valid URL" });
  }
  const refusal = refuseTarget(target, options.allowPrivate);
  if (refusal) return Promise.resolve({ ok: false, statusCode: null, error: refusal });

  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const transport = target.protocol === "https:" ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = transport.request(
      target,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "bsc-pay-webhooks/1",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
        lookup: options.allowPrivate ? undefined : publicOnlyLookup,
        agent: false,
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        let read = 0;
        const done = () =>
          finish(
            statusCode >= 200 && statusCode < 300
              ? { ok: true, statusCode, error: null }
              : {
                  ok: false,
                  statusCode,
                  error: statusCode >= 300 && statusCode < 400 ? `HTTP ${statusCode}: redirects are not followed` : `HTTP ${statusCode}`,
                },
          );
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) done();
        });
        response.on("end", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(
      () => finish({ ok: false, statusCode: null, error: `no answer within ${Math.round(timeoutMs / 1000)} s` }),
      timeoutMs,
    );
    request.on("error", (error) => finish({ ok: false, statusCode: null, error: connectionError(error) }));
    request.end(body);
  });
}

/**
 * DNS for a public-only delivery: c-ares queries with a deadline, never getaddrinfo — whose calls
 * occupy libuv's four pool threads until the system resolver gives up, so a merchant's domain with
 * a DNS server that never answers could stall every file, crypto and zlib call of the process.
 * Names under "localhost" are loopback by definition (RFC 6761) and not looked up at all.
 */
const resolver = new Resolver({ timeout: 2_000, tries: 2 });

function publicOnlyLookup(
  hostname: string,
  options: { family?: number | string; all?: boolean },
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  const name = hostname.replace(/\.$/, "").toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) {
    callback(new TargetRefused(`refused: ${hostname} resolves to 127.0.0.1, which is not a public address`), []);
    return;
  }
  const family = Number(options.family ?? 0);
  const pinned = hostsFileAddresses(name).filter((a) => family === 0 || a.family === family);
  if (pinned.length > 0) {
    answer(hostname, pinned, options, callback);
    return;
  }
  void Promise.allSettled([
    family === 6 ? Promise.resolve([]) : resolver.resolve4(name),
    family === 4 ? Promise.resolve([]) : resolver.resolve6(name),
  ]).then(([v4, v6]) => {
    const addresses: LookupAddress[] = [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length === 0) {
      const failure = [v4, v6].find((r) => r.status === "rejected") as PromiseRejectedResult | undefined;
      callback(Object.assign(new Error(`${hostname} does not resolve`), { code: "ENOTFOUND", cause: failure?.reason }), []);
    } else {
      answer(hostname, addresses, options, callback);
    }
  });
}

function answer(
  hostname: string,
  addresses: LookupAddress[],
  options: { all?: boolean },
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  const blocked = addresses.find((a) => isNonPublicAddress(a.address));
  const [first] = addresses;
  if (blocked) callback(new TargetRefused(`refused: ${hostname} resolves to ${blocked.address}, which is not a public address`), []);
  else if (options.all) callback(null, addresses);
  else if (first) callback(null, first.address, first.family);
  else callback(Object.assign(new Error(`${hostname} does not resolve`), { code: "ENOTFOUND" }), []);
}

/** Names the machine pins in /etc/hosts (what getaddrinfo would answer first; c-ares does not read it). */
export function hostsFileAddresses(name: string, path = "/etc/hosts"): LookupAddress[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const found: LookupAddress[] = [];
  for (const line of text.split("\n")) {
    const [address, ...names] = line.replace(/#.*/, "").trim().split(/\s+/);
    if (!address || !names.some((n) => n.toLowerCase() === name)) continue;
    const family = isIP(address);
    if (family) found.push({ address, family });
  }
  return found;
}

function connectionError(error: Error & { code?: string }): string {
  if (error instanceof TargetRefused) return error.message;
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host name does not resolve";
    case "ECONNRESET":
    case "EPIPE":
      return "the connection was closed without an answer";
    case "ETIMEDOUT":
      return "the connection timed out";
    default:
      if (error.code?.startsWith("ERR_TLS") || /certificate|SSL|TLS/i.test(error.message))
        return "TLS failed: the certificate was not accepted";
      return `the request failed (${error.code ?? "network error"})`;
  }
}
