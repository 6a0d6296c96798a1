import { beforeAll, describe, expect, it } from "vitest";
import { POST as issueKey } from "@/app/api/user/api-keys/route";
import { GET as status, OPTIONS as statusPreflight } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create, OPTIONS as createPreflight } from "@/app/api/v1/payment/create/route";
import { paymentSessions } from "@/lib/db/schema";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { type Merchant, newApiKey, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const config = (extra: Record<string, string> = {}) =>
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", ...extra });

let merchant: Merchant;
const countSessions = async () => (await db().select({ id: paymentSessions.id }).from(paymentSessions)).length;

beforeAll(async () => {
  config();
  merchant = await setUpMerchant({ contractAddress: await deployTestToken(chain().url), network: "bsc" });
});

describe("Idempotency-Key on payment/create", () => {
  it("returns the first response again for the same key and body, in any key order", async () => {
    const headers = { "x-api-key": merchant.apiKey, "idempotency-key": "order-1001" };
    const first = await call(create, {
      method: "POST",
      headers,
      body: { tokenId: merchant.tokenId, amount: "3", metadata: { a: 1, b: 2 } },
    });
    expect(first.status).toBe(201);
    const before = await countSessions();
    const again = await call(create, {
      method: "POST",
      headers,
      body: { metadata: { b: 2, a: 1 }, amount: "3", tokenId: merchant.tokenId },
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await countSessions()).toBe(before);
  });

  it("answers 409 IDEMPOTENCY_CONFLICT for the same key with a different body", async () => {
    const headers = { "x-api-key": merchant.apiKey, "idempotency-key": "order-1002" };
    await call(create, { method: "POST", headers, body: { tokenId: merchant.tokenId, amount: "3" } });
    const before = await countSessions();
    const res = await call(create, { method: "POST", headers, body: { tokenId: merchant.tokenId, amount: "4" } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("IDEMPOTENCY_CONFLICT");
    expect(await countSessions()).toBe(before);
  });

  it("creates one session for concurrent duplicates", async () => {
    const headers = { "x-api-key": merchant.apiKey, "idempotency-key": "order-1003" };
    const before = await countSessions();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call(create, { method: "POST", headers, body: { tokenId: merchant.tokenId, amount: "7" } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(results.map((r) => r.body.data.sessionId)).size).toBe(1);
    expect(await countSessions()).toBe(before + 1);
  });

  it("scopes keys to the API key, and lets a request that failed be retried", async () => {
    const other = await newApiKey(merchant.auth);
    const body = { tokenId: merchant.tokenId, amount: "3" };
    const a = await call(create, { method: "POST", headers: { "x-api-key": merchant.apiKey, "idempotency-key": "shared" }, body });
    const b = await call(create, { method: "POST", headers: { "x-api-key": other.key, "idempotency-key": "shared" }, body });
    expect(a.body.data.sessionId).not.toBe(b.body.data.sessionId);

    const failing = { "x-api-key": merchant.apiKey, "idempotency-key": "retry-me" };
    const denied = await call(create, { method: "POST", headers: { ...failing, origin: "https://evil.example" }, body });
    expect(denied.status).toBe(403);
    const retried = await call(create, { method: "POST", headers: failing, body });
    expect(retried.status).toBe(201);
  });

  it("refuses a malformed key", async () => {
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey, "idempotency-key": "x".repeat(300) },
      body: { tokenId: merchant.tokenId, amount: "1" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("Idempotency-Key");
  });
});

describe("rate limiting", () => {
  it("answers 429 RATE_LIMITED with Retry-After once a key exceeds its limit, without affecting other keys", async () => {
    config({ RATE_LIMIT_PER_MINUTE: "5" });
    await resetRateLimits();
    const limited = await newApiKey(merchant.auth);
    const other = await newApiKey(merchant.auth);
    const sessionId = crypto.randomUUID();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await call(status, { headers: { "x-api-key": limited.key }, params: { sessionId } })).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    const res = await call(status, { headers: { "x-api-key": limited.key }, params: { sessionId } });
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("RATE_LIMITED");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await call(status, { headers: { "x-api-key": other.key }, params: { sessionId } })).status).toBe(404);
    config();
    await resetRateLimits();
  });
});

describe("CORS", () => {
  it("answers a preflight only for a whitelisted origin", async () => {
    const ok = await call(createPreflight, {
      method: "OPTIONS",
      headers: { origin: "https://shop.example.com", "access-control-request-method": "POST" },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    expect(ok.headers.get("access-control-allow-headers")).toContain("x-api-key");
    expect(ok.headers.get("access-control-allow-methods")).toContain("POST");
    const denied = await call(statusPreflight, { method: "OPTIONS", headers: { origin: "https://evil.example" } });
    expect(denied.status).toBe(403);
    expect(denied.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("allows the key owner's whitelisted origins only on responses of a publishable key, errors included", async () => {
    const publishable = await call(issueKey, { method: "POST", headers: merchant.auth, body: { kind: "publishable" } });
    const pk: string = publishable.body.data.key;
    const mine = await call(status, {
      headers: { "x-api-key": pk, origin: "https://shop.example.com" },
      params: { sessionId: crypto.randomUUID() },
    });
    expect(mine.status).toBe(404);
    expect(mine.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    const someoneElses = await setUpMerchant({
      contractAddress: await deployTestToken(chain().url),
      network: "bsc",
      domain: "https://elsewhere.example",
    });
    expect(someoneElses.apiKey).toBeDefined();
    const foreign = await call(status, {
      headers: { "x-api-key": pk, origin: "https://elsewhere.example" },
      params: { sessionId: crypto.randomUUID() },
    });
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    const serverToServer = await call(status, { headers: { "x-api-key": pk }, params: { sessionId: crypto.randomUUID() } });
    expect(serverToServer.headers.get("access-control-allow-origin")).toBeNull();
    // A secret key used from a page: the browser gets nothing it may read.
    const secretFromPage = await call(status, {
      headers: { "x-api-key": merchant.apiKey, origin: "https://shop.example.com" },
      params: { sessionId: crypto.randomUUID() },
    });
    expect(secretFromPage.headers.get("access-control-allow-origin")).toBeNull();
  });
});
