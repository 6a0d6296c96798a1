/**
 * The SDK's retry rules against a scripted HTTP server (the real product's 429 and lost answers are
 * in tests/e2e/sdk.spec.ts): what is sent again, after how long, and with which Idempotency-Key.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "../src/client.js";
import { BscPayApiError, BscPayNetworkError } from "../src/errors.js";
import { randomKey, retryAfterSeconds } from "../src/transport.js";

type Reply = (req: IncomingMessage, res: ServerResponse) => void;
interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  apiKey: string | undefined;
  body: string;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections(); // the replies that never answer hold theirs open
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server answering the n-th request with replies[n] (the last reply repeats). */
async function scripted(replies: Reply[]): Promise<{ baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        key: req.headers["idempotency-key"] as string | undefined,
        apiKey: req.headers["x-api-key"] as string | undefined,
        body,
      });
      (replies[seen.length - 1] ?? replies[replies.length - 1])!(req, res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const ok =
  (data: unknown, status = 200): Reply =>
  (_req, res) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ success: true, data }));
const refuse =
  (status: number, code: string, reason?: string, headers: Record<string, string> = {}): Reply =>
  (_req, res) =>
    res
      .writeHead(status, { "content-type": "application/json", ...headers })
      .end(JSON.stringify({ success: false, error: { code, message: `${code} happened`, reason } }));
const hangUp: Reply = (req) => req.socket.destroy();

function client(baseUrl: string, extra: Partial<Parameters<typeof createClient>[0]> = {}) {
  const waits: number[] = [];
  const sdk = createClient({
    apiKey: "bscp_live_test",
    baseUrl,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  });
  return { sdk, waits };
}

const STATUS = { sessionId: "s", status: "pending" };
const CREATED = { sessionId: "s", status: "pending", amount: "1" };

describe("SDK transport", () => {
  it("returns the envelope's data and sends the API key", async () => {
    const { baseUrl, seen } = await scripted([ok(STATUS)]);
    const { sdk } = client(baseUrl);
    expect(await sdk.payments.status("s/../x")).toEqual(STATUS);
    expect(seen[0]).toMatchObject({ method: "GET", url: "/api/v1/payment/s%2F..%2Fx/status", apiKey: "bscp_live_test" });
  });

  it("waits Retry-After after a 429, then sends again: any call, since a 429 did nothing", async () => {
    const { baseUrl, seen } = await scripted([refuse(429, "RATE_LIMITED", "rate-limited", { "retry-after": "3" }), ok(STATUS)]);
    const { sdk, waits } = client(baseUrl);
    await sdk.payments.cancel("s");
    expect(waits).toEqual([3000]);
    expect(seen).toHaveLength(2);
  });

  it("does not wait for a Retry-After above maxRetryAfterSeconds: the 429 is thrown with it", async () => {
    const { baseUrl, seen } = await scripted([refuse(429, "RATE_LIMITED", "rate-limited", { "retry-after": "120" })]);
    const { sdk, waits } = client(baseUrl, { maxRetryAfterSeconds: 60 });
    const error = await sdk.payments.status("s").catch((e) => e);
    expect(error).toBeInstanceOf(BscPayApiError);
    expect(error).toMatchObject({ status: 429, code: "RATE_LIMITED", reason: "rate-limited", retryAfterSeconds: 120 });
    expect(waits).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it("gives up after maxRetries and throws the last refusal", async () => {
    const { baseUrl, seen } = await scripted([refuse(503, "INTERNAL_ERROR")]);
    const { sdk, waits } = client(baseUrl, { maxRetries: 3 });
    await expect(sdk.payments.status("s")).rejects.toMatchObject({ status: 503, code: "INTERNAL_ERROR" });
    expect(seen).toHaveLength(4);
    expect(waits).toHaveLength(3);
    expect(waits[2]!).toBeGreaterThanOrEqual(waits[0]!); // the ceiling grows
  });

  it("sends a money call with a fresh Idempotency-Key and reuses it for its own retry after a 5xx", async () => {
    const { baseUrl, seen } = await scripted([refuse(502, "INTERNAL_ERROR"), ok(CREATED, 201)]);
    const { sdk } = client(baseUrl);
    await sdk.payments.create({ tokenId: 1, amount: "1" });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]!.key).toBe(seen[0]!.key);
    expect(JSON.parse(seen[1]!.body)).toEqual({ tokenId: 1, amount: "1" });
    await sdk.payments.create({ tokenId: 1, amount: "1" });
    expect(seen[2]!.key).not.toBe(seen[0]!.key); // a new call, a new key
  });

  it("uses the caller's Idempotency-Key as given", async () => {
    const { baseUrl, seen } = await scripted([ok(CREATED, 201)]);
    const { sdk } = client(baseUrl);
    await sdk.withdrawals.send({ domainId: 1, tokenId: 1, toAddress: "0x0", amount: "1" }, { idempotencyKey: "order-42" });
    expect(seen[0]!.key).toBe("order-42");
  });

  it("never sends a call without an Idempotency-Key again after a 5xx: the API may have acted", async () => {
    const { baseUrl, seen } = await scripted([refuse(500, "INTERNAL_ERROR"), refuse(500, "INTERNAL_ERROR"), ok(CREATED, 201)]);
    const { sdk } = client(baseUrl);
    await expect(sdk.payments.create({ tokenId: 1, amount: "1" }, { idempotencyKey: false })).rejects.toMatchObject({ status: 500 });
    await expect(sdk.payments.cancel("s")).rejects.toBeInstanceOf(BscPayApiError);
    expect(seen.map((s) => s.key)).toEqual([undefined, undefined]);
  });

  it("never sends a call without an Idempotency-Key again after a lost connection", async () => {
    const { baseUrl, seen } = await scripted([hangUp, ok(STATUS)]);
    const { sdk } = client(baseUrl);
    const error = await sdk.payments.cancel("s").catch((e) => e);
    expect(error).toBeInstanceOf(BscPayNetworkError);
    expect(error.message).toContain("POST /api/v1/payment/s/cancel");
    expect(seen).toHaveLength(1);
  });

  it("sends reads and keyed money calls again after a lost connection", async () => {
    const { baseUrl, seen } = await scripted([hangUp, ok(STATUS), hangUp, ok(CREATED, 201)]);
    const { sdk } = client(baseUrl);
    expect(await sdk.payments.status("s")).toEqual(STATUS);
    expect(await sdk.refunds.create("s", { amount: "1" })).toEqual(CREATED);
    expect(seen).toHaveLength(4);
    expect(seen[3]!.key).toBe(seen[2]!.key);
  });

  it("counts a timeout as a lost answer", async () => {
    const { baseUrl, seen } = await scripted([() => {}]);
    const { sdk } = client(baseUrl, { timeoutMs: 200, maxRetries: 1 });
    const error = await sdk.payments.cancel("s").catch((e) => e);
    expect(error).toBeInstanceOf(BscPayNetworkError);
    expect(error.timedOut).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it("sends a keyed money call again when its first attempt times out, with the same key", async () => {
    const { baseUrl, seen } = await scripted([() => {}, ok(CREATED, 201)]);
    const { sdk } = client(baseUrl, { timeoutMs: 200 });
    expect(await sdk.payments.create({ tokenId: 1, amount: "1" })).toEqual(CREATED);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.key).toBe(seen[0]!.key);
  });

  it("a 2xx whose body is cut off is a lost answer, never a refusal: thrown as such without a key, sent again with one", async () => {
    const cutBody: Reply = (_req, res) => {
      res.writeHead(201, { "content-type": "application/json", "content-length": "500" });
      res.write('{"success":true,"data":{"sess');
      setTimeout(() => res.socket?.destroy(), 50);
    };
    const { baseUrl, seen } = await scripted([cutBody, cutBody, ok(CREATED, 201)]);
    const { sdk } = client(baseUrl);
    const error = await sdk.payments.create({ tokenId: 1, amount: "1" }, { idempotencyKey: false }).catch((e) => e);
    expect(error).toBeInstanceOf(BscPayNetworkError);
    expect(seen).toHaveLength(1);
    expect(await sdk.payments.create({ tokenId: 1, amount: "1" })).toEqual(CREATED);
    expect(seen).toHaveLength(3);
    expect(seen[2]!.key).toBe(seen[1]!.key);
  });

  it("an abort ends the wait for Retry-After at once, and the call throws the abort", async () => {
    const { baseUrl, seen } = await scripted([refuse(429, "RATE_LIMITED", "rate-limited", { "retry-after": "30" })]);
    const sdk = createClient({ apiKey: "k", baseUrl }); // the real clock: the wait must be cut short
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("shopper left")), 100);
    const started = Date.now();
    await expect(sdk.payments.status("s", { signal: controller.signal })).rejects.toThrow("shopper left");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(seen).toHaveLength(1);
  });

  it("types the refusal: status, code, reason and details", async () => {
    const { baseUrl } = await scripted([
      (_req, res) =>
        res.writeHead(400, { "content-type": "application/json" }).end(
          JSON.stringify({
            success: false,
            error: {
              code: "VALIDATION_ERROR",
              message: "amount: bad",
              reason: "amount-malformed",
              details: [{ path: "amount", message: "bad" }],
            },
          }),
        ),
    ]);
    const { sdk } = client(baseUrl);
    const error = await sdk.payments.create({ tokenId: 1, amount: "x" }).catch((e) => e);
    expect(error).toMatchObject({
      status: 400,
      code: "VALIDATION_ERROR",
      reason: "amount-malformed",
      details: [{ path: "amount", message: "bad" }],
      message: "amount: bad",
    });
    expect(error.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reports an answer that is not BSC Pay's envelope as UNEXPECTED_RESPONSE", async () => {
    const { baseUrl } = await scripted([(_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("<h1>nginx</h1>")]);
    const { sdk } = client(baseUrl);
    await expect(sdk.payments.status("s")).rejects.toMatchObject({ status: 404, code: "UNEXPECTED_RESPONSE" });
  });

  it("refuses to be created without a key or an http(s) base URL", () => {
    expect(() => createClient({ apiKey: "", baseUrl: "http://x" })).toThrow(/apiKey/);
    expect(() => createClient({ apiKey: "k", baseUrl: "pay.example.com" })).toThrow(/baseUrl/);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfterSeconds("7")).toBe(7);
    expect(retryAfterSeconds(new Date(10_000).toUTCString(), 5_000)).toBe(5);
    expect(retryAfterSeconds("soon")).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
    // Date.parse reads these as years long past: no wait at all. They are no Retry-After: backoff instead.
    for (const odd of ["1.5", "-1", "+3", "3 s"]) expect(retryAfterSeconds(odd), odd).toBeUndefined();
    expect(retryAfterSeconds("0")).toBe(0);
  });

  it("makes its Idempotency-Keys without crypto.randomUUID too (a browser page on plain http has none)", () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    // An own property hides Crypto.prototype.randomUUID until it is deleted.
    Object.defineProperty(globalThis.crypto, "randomUUID", { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 50 }, () => randomKey()));
      expect(keys.size).toBe(50);
      for (const key of keys) expect(key).toMatch(uuid);
    } finally {
      delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
    }
    expect(randomKey()).toMatch(uuid);
  });

  it("calls the API at the base URL's origin, whatever path it has (as checkout.js is loaded)", async () => {
    const { baseUrl, seen } = await scripted([ok(STATUS)]);
    await client(`${baseUrl}/dashboard`).sdk.payments.status("s");
    await client(`${baseUrl}/`).sdk.payments.status("s");
    expect(seen.map((s) => s.url)).toEqual(["/api/v1/payment/s/status", "/api/v1/payment/s/status"]);
  });

  it("clears its timer when an abort ends the wait: an aborted call keeps no process alive", async () => {
    const { baseUrl } = await scripted([refuse(429, "RATE_LIMITED", "rate-limited", { "retry-after": "50" })]);
    const sdk = createClient({ apiKey: "k", baseUrl });
    const set = vi.spyOn(globalThis, "setTimeout");
    const clear = vi.spyOn(globalThis, "clearTimeout");
    try {
      const controller = new AbortController();
      const call = sdk.payments.status("s", { signal: controller.signal });
      await vi.waitFor(() => expect(set.mock.calls.some(([, ms]) => ms === 50_000)).toBe(true));
      const waitTimer = set.mock.results[set.mock.calls.findIndex(([, ms]) => ms === 50_000)]?.value;
      controller.abort(new Error("done"));
      await expect(call).rejects.toThrow("done");
      expect(clear).toHaveBeenCalledWith(waitTimer);
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
  });
});

describe("SDK pagination", () => {
  it("walks every page by cursor and stops at the last", async () => {
    const pages: Record<string, unknown> = {
      "": { items: [{ sessionId: "a" }, { sessionId: "b" }], nextCursor: "c1", meta: {} },
      c1: { items: [{ sessionId: "c" }], nextCursor: "c2", meta: {} },
      c2: { items: [], nextCursor: null, meta: {} },
    };
    const { baseUrl, seen } = await scripted([
      (req, res) => {
        const cursor = new URL(req.url ?? "", "http://x").searchParams.get("cursor") ?? "missing";
        ok(pages[cursor])(req, res);
      },
    ]);
    const { sdk } = client(baseUrl);
    const ids: string[] = [];
    for await (const payment of sdk.payments.history({ status: "completed", limit: 2 })) ids.push(payment.sessionId);
    expect(ids).toEqual(["a", "b", "c"]);
    expect(seen.map((s) => s.url)).toEqual([
      "/api/v1/payment/history?status=completed&limit=2&cursor=",
      "/api/v1/payment/history?status=completed&limit=2&cursor=c1",
      "/api/v1/payment/history?status=completed&limit=2&cursor=c2",
    ]);
    expect((await sdk.payments.list({ limit: 2 })).nextCursor).toBe("c1");
  });

  it("passes the list's size on with a page where the API tells it", async () => {
    const meta = { page: null, limit: 2, total: 3, pages: 2, nextCursor: "c1" };
    const { baseUrl } = await scripted([ok({ items: [{ sessionId: "a" }, { sessionId: "b" }], nextCursor: "c1", meta })]);
    const page = await client(baseUrl).sdk.payments.list({ limit: 2 });
    expect(page).toEqual({ items: [{ sessionId: "a" }, { sessionId: "b" }], nextCursor: "c1", meta: { limit: 2, total: 3, pages: 2 } });
  });
});
