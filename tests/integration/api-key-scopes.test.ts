import { randomBytes } from "node:crypto";
import { count, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as createKey, GET as listKeys } from "@/app/api/user/api-keys/route";
import { POST as signOutEverywhereRoute } from "@/app/api/user/sign-out-everywhere/route";
import { POST as cancel, OPTIONS as cancelPreflight } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { POST as refund, OPTIONS as refundPreflight } from "@/app/api/v1/payment/[sessionId]/refund/route";
import { GET as refundsOf, OPTIONS as refundsPreflight } from "@/app/api/v1/payment/[sessionId]/refunds/route";
import { GET as status, OPTIONS as statusPreflight } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create, OPTIONS as createPreflight } from "@/app/api/v1/payment/create/route";
import { GET as history, OPTIONS as historyPreflight } from "@/app/api/v1/payment/history/route";
import { POST as refundCancel, OPTIONS as refundCancelPreflight } from "@/app/api/v1/refund/[refundId]/cancel/route";
import { GET as refundRead, OPTIONS as refundReadPreflight } from "@/app/api/v1/refund/[refundId]/route";
import { GET as withdrawalRead, OPTIONS as withdrawalReadPreflight } from "@/app/api/v1/withdrawal/[withdrawalId]/route";
import { GET as withdrawalHistory, OPTIONS as withdrawalHistoryPreflight } from "@/app/api/v1/withdrawal/history/route";
import { POST as send, OPTIONS as sendPreflight } from "@/app/api/v1/withdrawal/send/route";
import { hashApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { apiKeys, paymentSessions } from "@/lib/db/schema";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const config = () => useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });

const SHOP = "https://shop.example.com";
const ALL = ["payments:write", "payments:read", "refunds", "withdrawals", "payouts"];
let merchant: Merchant;
let publishable: string;

async function newKey(body: Record<string, unknown>) {
  const res = await call(createKey, { method: "POST", headers: merchant.auth, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; key: string; kind: string; scopes: string[] };
}

const sessions = async () => Number((await db().select({ n: count() }).from(paymentSessions))[0]?.n ?? 0);
const keyCount = async () =>
  Number((await db().select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, merchant.userId)))[0]?.n ?? 0);

/** Every money-out route, called with `key` from the merchant's own whitelisted origin. */
function moneyOut(key: string) {
  const headers = { "x-api-key": key, origin: SHOP };
  const id = crypto.randomUUID();
  return [
    { scope: "withdrawals", run: () => call(send, { method: "POST", headers, body: {} }) },
    { scope: "withdrawals", run: () => call(withdrawalHistory, { headers }) },
    { scope: "withdrawals", run: () => call(withdrawalRead, { headers, params: { withdrawalId: id } }) },
    { scope: "refunds", run: () => call(refund, { method: "POST", headers, body: {}, params: { sessionId: id } }) },
    { scope: "refunds", run: () => call(refundsOf, { headers, params: { sessionId: id } }) },
    { scope: "refunds", run: () => call(refundRead, { headers, params: { refundId: id } }) },
    { scope: "refunds", run: () => call(refundCancel, { method: "POST", headers, params: { refundId: id } }) },
  ];
}

beforeAll(async () => {
  config();
  merchant = await setUpMerchant({ contractAddress: await deployTestToken(chain().url), network: "bsc", domain: SHOP });
  publishable = (await newKey({ name: "shop pages", kind: "publishable" })).key;
});

describe("API key kinds and scopes on creation", () => {
  it("keeps the old wire format: {name} makes a secret key, without the money scopes while the owner has no two-factor; GET lists kind, scopes and maker", async () => {
    const key = await newKey({ name: "server" });
    expect(key.key).toMatch(/^bscp_live_[A-Za-z0-9_-]{43}$/);
    // Every scope the owner's role holds, less those that send money out: they need the owner's code (key-holders.test.ts).
    expect(key).toMatchObject({ kind: "secret", scopes: ["payments:write", "payments:read"], createdBy: { userId: merchant.userId } });
    const pk = await newKey({ kind: "publishable" });
    expect(pk.key).toMatch(/^bscp_pk_live_[A-Za-z0-9_-]{43}$/);
    expect(pk).toMatchObject({ kind: "publishable", scopes: ["payments:write", "payments:read"] });
    const listed = (await call(listKeys, { headers: merchant.auth })).body.data;
    expect(listed.find((k: { id: number }) => k.id === pk.id)).toMatchObject({
      kind: "publishable",
      scopes: ["payments:write", "payments:read"],
    });
  });

  it.each([
    [{ kind: "publishable", scopes: ["withdrawals"] }, "a publishable key cannot hold `withdrawals`"],
    [{ kind: "publishable", scopes: ["payments:read", "refunds"] }, "a publishable key cannot hold `refunds`"],
    [{ kind: "publishable", scopes: ["payouts"] }, "a publishable key cannot hold `payouts`"],
    [{ scopes: [] }, "scopes must name at least one scope"],
    [{ scopes: ["everything"] }, "each scope must be one of"],
    [{ scopes: "withdrawals" }, "scopes must be an array"],
    [{ kind: "admin" }, "kind must be one of secret, publishable"],
  ])("refuses %j with VALIDATION_ERROR and creates nothing", async (body, message) => {
    const before = await keyCount();
    const res = await call(createKey, { method: "POST", headers: merchant.auth, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.message).toContain(message);
    expect(await keyCount()).toBe(before);
  });
});

describe("a publishable key (browser code)", () => {
  it("is refused on every withdrawal and refund route, naming the scope, with no CORS header", async () => {
    for (const { scope, run } of moneyOut(publishable)) {
      const res = await run();
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: "UNAUTHORIZED", message: `this API key lacks the \`${scope}\` scope` });
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("creates, reads and cancels payments, and gets CORS for the owner's whitelisted origin only", async () => {
    const headers = { "x-api-key": publishable, origin: SHOP };
    const created = await call(create, { method: "POST", headers, body: { tokenId: merchant.tokenId, amount: "2" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBe(SHOP);
    const { sessionId } = created.body.data;
    const read = await call(status, { headers, params: { sessionId } });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBe(SHOP);
    const listed = await call(history, { headers });
    expect(listed.body.data.items.map((i: { sessionId: string }) => i.sessionId)).toContain(sessionId);
    expect(listed.headers.get("access-control-allow-origin")).toBe(SHOP);
    const cancelled = await call(cancel, { method: "POST", headers, params: { sessionId } });
    expect(cancelled.body.data.status).toBe("cancelled");
    expect(cancelled.headers.get("access-control-allow-origin")).toBe(SHOP);
    const elsewhere = await call(status, { headers: { ...headers, origin: "https://evil.example" }, params: { sessionId } });
    expect(elsewhere.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("cannot choose where the tokens go (merchantWallet needs `payouts`): refused, nothing created", async () => {
    const before = await sessions();
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": publishable, origin: SHOP },
      body: { tokenId: merchant.tokenId, amount: "2", merchantWallet: "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199" },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe("this API key lacks the `payouts` scope (needed to set merchantWallet)");
    expect(await sessions()).toBe(before);
  });

  it("is refused when its prefix is changed to a secret key's (the stored kind decides)", async () => {
    const forged = publishable.replace("bscp_pk_live_", "bscp_live_");
    const res = await call(withdrawalHistory, { headers: { "x-api-key": forged } });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe("API key is invalid or revoked");
  });
});

describe("CORS preflight (no key): payment routes only", () => {
  it("answers on payment routes for a whitelisted origin", async () => {
    for (const preflight of [createPreflight, statusPreflight, historyPreflight, cancelPreflight]) {
      const res = await call(preflight, { method: "OPTIONS", headers: { origin: SHOP, "access-control-request-method": "POST" } });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(SHOP);
    }
  });

  it("never answers on a money-out route, even for a whitelisted origin", async () => {
    for (const preflight of [
      sendPreflight,
      withdrawalHistoryPreflight,
      withdrawalReadPreflight,
      refundPreflight,
      refundsPreflight,
      refundReadPreflight,
      refundCancelPreflight,
    ]) {
      const res = await call(preflight, { method: "OPTIONS", headers: { origin: SHOP, "access-control-request-method": "POST" } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("DOMAIN_NOT_WHITELISTED");
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(res.headers.get("access-control-allow-methods")).toBeNull();
    }
  });
});

describe("a secret key", () => {
  it("gets no CORS header on any route, even from the owner's whitelisted origin (a page cannot read its answers)", async () => {
    const headers = { "x-api-key": merchant.apiKey, origin: SHOP };
    const created = await call(create, { method: "POST", headers, body: { tokenId: merchant.tokenId, amount: "2" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBeNull();
    const read = await call(status, { headers, params: { sessionId: created.body.data.sessionId } });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
    for (const { run } of moneyOut(merchant.apiKey)) expect((await run()).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("with payments:read only cannot create (nothing created) but can read", async () => {
    const readOnly = await newKey({ name: "reporting", scopes: ["payments:read"] });
    expect(readOnly).toMatchObject({ kind: "secret", scopes: ["payments:read"] });
    const before = await sessions();
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": readOnly.key },
      body: { tokenId: merchant.tokenId, amount: "2" },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: "UNAUTHORIZED", message: "this API key lacks the `payments:write` scope" });
    expect(await sessions()).toBe(before);
    expect((await call(history, { headers: { "x-api-key": readOnly.key } })).status).toBe(200);
    expect((await call(withdrawalHistory, { headers: { "x-api-key": readOnly.key } })).status).toBe(401);
  });

  it("made before scopes existed (the migration's default) keeps working on every route", async () => {
    const key = `bscp_live_${randomBytes(32).toString("base64url")}`;
    await db().execute(
      // created_by as migration 0043 fills it for the keys it finds: the account's owner.
      sql`insert into api_keys (user_id, created_by, name, prefix, key_hash) values (${merchant.userId}, ${merchant.userId}, 'legacy', ${key.slice(0, 16)}, ${hashApiKey(key)})`,
    );
    const [row] = await db()
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, hashApiKey(key)));
    expect(row).toMatchObject({ kind: "secret", scopes: ALL });
    const headers = { "x-api-key": key };
    const created = await call(create, { method: "POST", headers, body: { tokenId: merchant.tokenId, amount: "2" } });
    expect(created.status).toBe(201);
    expect((await call(withdrawalHistory, { headers })).status).toBe(200);
    expect((await call(refundsOf, { headers, params: { sessionId: created.body.data.sessionId } })).status).toBe(200);
    for (const { run } of moneyOut(key)) expect((await run()).status).not.toBe(401);
  });
});

describe("sign out everywhere", () => {
  it("leaves API keys working unless asked; asked, revokes every key of the user at once and nobody else's", async () => {
    await resetRateLimits();
    const other = await setUpMerchant({ contractAddress: await deployTestToken(chain().url), network: "bsc" });
    const kept = await call(signOutEverywhereRoute, { method: "POST", headers: merchant.auth });
    expect(kept.body.data).toEqual({ signedOut: true, apiKeysRevoked: 0 });
    expect((await call(history, { headers: { "x-api-key": merchant.apiKey } })).status).toBe(200);

    const fresh = await setUpMerchant({ contractAddress: await deployTestToken(chain().url), network: "bsc" });
    const bad = await call(signOutEverywhereRoute, { method: "POST", headers: fresh.auth, body: { revokeApiKeys: "yes" } });
    expect(bad.status).toBe(400);
    expect((await call(history, { headers: { "x-api-key": fresh.apiKey } })).status).toBe(200); // nothing changed
    const revoked = await call(signOutEverywhereRoute, { method: "POST", headers: fresh.auth, body: { revokeApiKeys: true } });
    expect(revoked.body.data).toEqual({ signedOut: true, apiKeysRevoked: 1 });
    const refused = await call(history, { headers: { "x-api-key": fresh.apiKey } });
    expect(refused.status).toBe(401);
    expect((await call(history, { headers: { "x-api-key": other.apiKey } })).status).toBe(200);
  });
});
