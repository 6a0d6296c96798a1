import { eq } from "drizzle-orm";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { getAddress } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as addDomain } from "@/app/api/user/domains/route";
import { POST as choosePlan } from "@/app/api/user/package/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { paymentSessions, plans, sessionUsage, subscriptions } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const config = () =>
  useConfig({
    BSC_RPC_URL: chain().url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    NEXTAUTH_URL: "https://pay.example.com",
    SESSION_TTL_SECONDS: "600",
  });

let merchant: Merchant;
let tokenAddress: string;
const headers = () => ({ "x-api-key": merchant.apiKey });
const countSessions = async () => (await db().select({ id: paymentSessions.id }).from(paymentSessions)).length;

function decodeQr(dataUri: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(dataUri.replace(/^data:image\/png;base64,/, ""), "base64"));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

beforeAll(async () => {
  config();
  tokenAddress = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  merchant = await setUpMerchant({ contractAddress: tokenAddress, network: "bsc" });
});

describe("POST /api/v1/payment/create", () => {
  it("creates a pending session with a fresh HD deposit address, a QR of the EIP-681 URI and a checkout URL", async () => {
    const before = Date.now();
    const res = await call(create, { method: "POST", headers: headers(), body: { tokenId: merchant.tokenId, amount: "10.50" } });
    const after = Date.now();
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(res.body.success).toBe(true);
    expect(Object.keys(data).sort()).toEqual(
      [
        "amount",
        "checkoutUrl",
        "depositAddress",
        "description",
        "ephemeralAddress",
        "expiresAt",
        "orderId",
        "qrCode",
        "sessionId",
        "status",
        "token",
      ].sort(),
    );
    expect(data).toMatchObject({ amount: "10.5", token: "USDT", status: "pending" });
    expect(data.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(data.ephemeralAddress).toBe(data.depositAddress);
    expect(data.checkoutUrl).toBe(`https://pay.example.com/pay/${data.sessionId}`);
    // Ten minutes from a moment during the request (a loaded machine may take a second to answer).
    const expiresAt = new Date(data.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 599_000);
    expect(expiresAt).toBeLessThanOrEqual(after + 601_000);
    expect(data.expiresAt).toMatch(/Z$/);

    const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, data.sessionId));
    expect(data.depositAddress).toBe(keyRingFor(TEST_MNEMONIC).depositAddress(row!.depositIndex));
    expect(row).toMatchObject({ amount: 10_500_000_000_000_000_000n, forwardTo: merchant.withdrawalAddress, apiKeyId: merchant.apiKeyId });

    expect(data.qrCode).toMatch(/^data:image\/png;base64,/);
    const uri = decodeQr(data.qrCode)!;
    const match = /^ethereum:(0x[0-9a-fA-F]{40})@56\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/.exec(uri);
    expect(match).not.toBeNull();
    expect(getAddress(match![1]!)).toBe(tokenAddress);
    expect(getAddress(match![2]!)).toBe(data.depositAddress);
    expect(match![3]).toBe("10500000000000000000");
  });

  it("forwards to merchantWallet, else the domain's payout address, else its withdrawal wallet", async () => {
    const wallet = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
    const explicit = await call(create, {
      method: "POST",
      headers: headers(),
      body: { tokenId: merchant.tokenId, amount: "1", merchantWallet: wallet.toLowerCase() },
    });
    const payout = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
    await call(patchDomain, {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: String(merchant.domainId) },
      body: { payoutAddress: payout },
    });
    const viaDomain = await call(create, { method: "POST", headers: headers(), body: { tokenId: merchant.tokenId, amount: "1" } });
    const rows = await db().select().from(paymentSessions);
    expect(rows.find((r) => r.id === explicit.body.data.sessionId)!.forwardTo).toBe(wallet);
    expect(rows.find((r) => r.id === viaDomain.body.data.sessionId)!.forwardTo).toBe(payout);
    await call(patchDomain, {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: String(merchant.domainId) },
      body: { payoutAddress: null },
    });
  });

  it("keeps metadata and redirectUrl, and accepts 6-decimal tokens", async () => {
    const six = await deployTestToken(chain().url, { symbol: "SIX", decimals: 6 });
    const other = await setUpMerchant({ contractAddress: six, network: "bsc" });
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": other.apiKey },
      body: { tokenId: other.tokenId, amount: "0.000001", metadata: { orderId: "A-17" }, redirectUrl: "https://shop.example.com/thanks" },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amount: "0.000001", token: "SIX" });
    const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, res.body.data.sessionId));
    expect(row).toMatchObject({ amount: 1n, metadata: { orderId: "A-17" }, redirectUrl: "https://shop.example.com/thanks" });
  });

  const invalidAmounts: [unknown, string][] = [
    ["abc", "amount must be a positive decimal string"],
    ["-1", "amount must be a positive decimal string"],
    ["0", "amount must be greater than 0"],
    ["0.0", "amount must be greater than 0"],
    ["1e5", "amount must be a positive decimal string"],
    ["1.0000000000000000001", "more than 18 decimal places"],
    ["", "amount must be a positive decimal string"],
    [" 1", "amount must be a positive decimal string"],
    ["1,5", "amount must be a positive decimal string"],
    [15, "amount must be a decimal string"],
    [null, "amount must be a decimal string"],
    ["9".repeat(120), "amount is too long"],
    ["9".repeat(70), "amount is too large"],
  ];
  it.each(invalidAmounts)("refuses amount %j with VALIDATION_ERROR and creates nothing", async (amount, message) => {
    const before = await countSessions();
    const res = await call(create, { method: "POST", headers: headers(), body: { tokenId: merchant.tokenId, amount } });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.message).toContain(message);
    expect(await countSessions()).toBe(before);
  });

  const invalidBodies: [Record<string, unknown>, string][] = [
    [{ tokenId: undefined, amount: "1" }, "tokenId must be an integer"],
    [{ tokenId: "1", amount: "1" }, "tokenId must be an integer"],
    [{ tokenId: 1.5, amount: "1" }, "tokenId must be an integer"],
    [{ tokenId: 999_999, amount: "1" }, "unknown tokenId 999999"],
    [{ amount: "1", merchantWallet: "0x123" }, "merchantWallet must be a 0x-prefixed"],
    [{ amount: "1", domainId: "x" }, "domainId must be an integer"],
    [{ amount: "1", metadata: ["a"] }, "metadata must be a JSON object"],
    [{ amount: "1", metadata: { blob: "x".repeat(5000) } }, "metadata must be at most 4096 bytes"],
    [{ amount: "1", redirectUrl: "javascript:alert(1)" }, "redirectUrl must be an http(s) URL"],
  ];
  it.each(invalidBodies)("refuses %j and creates nothing", async (body, message) => {
    const before = await countSessions();
    const res = await call(create, { method: "POST", headers: headers(), body: { tokenId: merchant.tokenId, ...body } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.message).toContain(message);
    expect(await countSessions()).toBe(before);
  });

  it("refuses bad JSON and another user's tokenId (VALIDATION_ERROR)", async () => {
    const bad = await call(create, { method: "POST", headers: headers(), body: '{"tokenId": 1,' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("request body is not valid JSON");
    const other = await setUpMerchant({ contractAddress: tokenAddress, network: "bsc" });
    const res = await call(create, { method: "POST", headers: headers(), body: { tokenId: other.tokenId, amount: "1" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(`unknown tokenId ${other.tokenId}`);
  });

  it("answers UNAUTHORIZED without a valid key", async () => {
    for (const h of [{}, { "x-api-key": "bscp_live_nope" }] as Record<string, string>[]) {
      const res = await call(create, { method: "POST", headers: h, body: { tokenId: merchant.tokenId, amount: "1" } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("UNAUTHORIZED");
    }
  });

  it("answers DOMAIN_NOT_WHITELISTED for another user's domainId, an unlisted Origin, or no domain at all", async () => {
    const other = await setUpMerchant({ contractAddress: tokenAddress, network: "bsc", domain: "https://other.example" });
    const before = await countSessions();
    const foreign = await call(create, {
      method: "POST",
      headers: headers(),
      body: { tokenId: merchant.tokenId, amount: "1", domainId: other.domainId },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("DOMAIN_NOT_WHITELISTED");
    const origin = await call(create, {
      method: "POST",
      headers: { ...headers(), origin: "https://evil.example" },
      body: { tokenId: merchant.tokenId, amount: "1" },
    });
    expect(origin.status).toBe(403);
    expect(origin.body.error.message).toContain("origin https://evil.example is not a whitelisted domain");
    const allowed = await call(create, {
      method: "POST",
      headers: { ...headers(), origin: "https://shop.example.com" },
      body: { tokenId: merchant.tokenId, amount: "1" },
    });
    expect(allowed.status).toBe(201);
    expect(await countSessions()).toBe(before + 1);

    const { DELETE: removeDomain } = await import("@/app/api/user/domains/[id]/route");
    await call(removeDomain, { method: "DELETE", headers: other.auth, params: { id: String(other.domainId) } });
    const none = await call(create, {
      method: "POST",
      headers: { "x-api-key": other.apiKey },
      body: { tokenId: other.tokenId, amount: "1" },
    });
    expect(none.status).toBe(403);
    expect(none.body.error.message).toContain("whitelist a domain");
  });

  it("answers NO_PACKAGE for a user without a plan", async () => {
    const other = await setUpMerchant({ contractAddress: tokenAddress, network: "bsc" });
    const { subscriptions } = await import("@/lib/db/schema");
    await db().delete(subscriptions).where(eq(subscriptions.userId, other.userId));
    const before = await countSessions();
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": other.apiKey },
      body: { tokenId: other.tokenId, amount: "1" },
    });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe("NO_PACKAGE");
    expect(await countSessions()).toBe(before);
  });

  it("gives 20 concurrent creates 20 distinct deposit addresses", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(create, { method: "POST", headers: headers(), body: { tokenId: merchant.tokenId, amount: "2" } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.data.depositAddress)).size).toBe(20);
    const all = await db().select({ a: paymentSessions.depositAddress }).from(paymentSessions);
    expect(new Set(all.map((r) => r.a)).size).toBe(all.length);
  });

  it("counts the monthly quota exactly under concurrent creates, and a create past it writes nothing", async () => {
    const other = await setUpMerchant({ contractAddress: tokenAddress, network: "bsc" });
    await db().insert(plans).values({ id: "three", name: "Three", monthlySessionQuota: 3, selfServe: true });
    await call(choosePlan, { method: "POST", headers: other.auth, body: { plan: "three" } });
    const before = await countSessions();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(create, { method: "POST", headers: { "x-api-key": other.apiKey }, body: { tokenId: other.tokenId, amount: "1" } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 402, 402, 402]);
    expect(results.find((r) => r.status === 402)!.body.error).toEqual({
      code: "NO_PACKAGE",
      message: "the Three plan allows 3 payment sessions a month; this month's are used up",
      reason: "plan-quota-used-up",
    });
    expect(await countSessions()).toBe(before + 3);
    const [usage] = await db().select().from(sessionUsage).where(eq(sessionUsage.userId, other.userId));
    expect(usage!.sessions).toBe(3);
  });

  it("answers NO_PACKAGE once the plan has ended, and counts nothing", async () => {
    const other = await setUpMerchant({ contractAddress: tokenAddress, network: "bsc" });
    await db()
      .update(subscriptions)
      .set({ endsAt: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, other.userId));
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": other.apiKey },
      body: { tokenId: other.tokenId, amount: "1" },
    });
    expect(res.status).toBe(402);
    expect(res.body.error.message).toContain("no active plan");
    expect(await db().select().from(sessionUsage).where(eq(sessionUsage.userId, other.userId))).toEqual([]);
  });

  it("takes domainId over the Origin's domain, but still refuses an Origin that is not whitelisted", async () => {
    const other = await setUpMerchant({ contractAddress: tokenAddress, network: "bsc", domain: "https://first.example" });
    const second = await call(addDomain, { method: "POST", headers: other.auth, body: { domain: "https://second.example" } });
    const headers = { "x-api-key": other.apiKey };
    const byOrigin = await call(create, {
      method: "POST",
      headers: { ...headers, origin: "https://second.example" },
      body: { tokenId: other.tokenId, amount: "1" },
    });
    const byId = await call(create, {
      method: "POST",
      headers: { ...headers, origin: "https://second.example" },
      body: { tokenId: other.tokenId, amount: "1", domainId: other.domainId },
    });
    const byDefault = await call(create, { method: "POST", headers, body: { tokenId: other.tokenId, amount: "1" } });
    const domainOf = async (res: { body: { data: { sessionId: string } } }) =>
      (await db().select().from(paymentSessions).where(eq(paymentSessions.id, res.body.data.sessionId)))[0]!.domainId;
    expect(await domainOf(byOrigin)).toBe(second.body.data.domainId);
    expect(await domainOf(byId)).toBe(other.domainId);
    expect(await domainOf(byDefault)).toBe(other.domainId);
    const refused = await call(create, {
      method: "POST",
      headers: { ...headers, origin: "not an origin" },
      body: { tokenId: other.tokenId, amount: "1", domainId: other.domainId },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("origin not an origin is not a whitelisted domain");
  });

  it("gives a refused create's deposit address to the next create: refusals leave no gap in the indices", async () => {
    const indexOf = async (res: { body: { data: { sessionId: string } } }) =>
      (await db().select().from(paymentSessions).where(eq(paymentSessions.id, res.body.data.sessionId)))[0]!.depositIndex;
    const first = await call(create, { method: "POST", headers: headers(), body: { tokenId: merchant.tokenId, amount: "1" } });
    const refused = await call(create, {
      method: "POST",
      headers: { ...headers(), origin: "https://evil.example" },
      body: { tokenId: merchant.tokenId, amount: "1" },
    });
    expect(refused.status).toBe(403);
    const invalid = await call(create, { method: "POST", headers: headers(), body: { tokenId: 999_999, amount: "1" } });
    expect(invalid.status).toBe(400);
    const next = await call(create, { method: "POST", headers: headers(), body: { tokenId: merchant.tokenId, amount: "1" } });
    expect(await indexOf(next)).toBe((await indexOf(first)) + 1);
  });
});
