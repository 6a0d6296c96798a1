import { type Address, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { GET as getOne, PATCH as patch, DELETE as remove } from "@/app/api/user/domains/[id]/route";
import { POST as add, GET as list } from "@/app/api/user/domains/route";
import { POST as cancelPayment } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { POST as createPayment } from "@/app/api/v1/payment/create/route";
import { domains } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { setUpMerchant, signUp } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { payTo } from "../helpers/engine";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const config = () => useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
const PAYOUT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("domains", () => {
  it("whitelists a normalised origin and shows its withdrawal wallet (m/44'/60'/2'/0/<domainId>)", async () => {
    config();
    const { auth } = await signUp();
    const res = await call(add, { method: "POST", headers: auth, body: { domain: "HTTPS://Shop.Example.com:443/" } });
    expect(res.status).toBe(201);
    const domainId = res.body.data.domainId;
    expect(res.body.data).toEqual({
      domainId,
      domain: "https://shop.example.com",
      payoutAddress: null,
      webhookUrl: null,
      webhookSecretHint: null,
      withdrawalAddress: keyRingFor(TEST_MNEMONIC).withdrawalAddress(domainId),
      pendingPayoutAddress: null,
      payoutChangeEffectiveAt: null,
      payoutChangeRequestedAt: null,
      fiatUnderpayBps: null,
      fiatRateToleranceBps: null,
      fiatUnderpayBpsInForce: 0,
      fiatRateToleranceBpsInForce: 100,
      createdAt: expect.any(String),
    });
    const listed = await call(list, { headers: auth });
    expect(listed.body.data).toEqual([res.body.data]);
    expect((await call(getOne, { headers: auth, params: { id: String(domainId) } })).body.data).toEqual(res.body.data);
  });

  it.each([
    [{ domain: "shop.example.com" }, "domain must be an origin URL"],
    [{ domain: "https://shop.example.com/checkout" }, "domain must be an origin URL"],
    [{ domain: "ftp://shop.example.com" }, "domain must be an origin URL"],
    [{ domain: 12 }, "domain must be a string"],
    [{}, "domain must be a string"],
  ])("rejects %j and stores nothing", async (body, message) => {
    config();
    const { auth } = await signUp();
    const before = (await db().select().from(domains)).length;
    const res = await call(add, { method: "POST", headers: auth, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.message).toContain(message);
    expect((await db().select().from(domains)).length).toBe(before);
  });

  it("refuses a duplicate origin of the same user, but another user may whitelist it", async () => {
    const alice = await signUp();
    const bob = await signUp();
    expect((await call(add, { method: "POST", headers: alice.auth, body: { domain: "https://dup.example" } })).status).toBe(201);
    const dup = await call(add, { method: "POST", headers: alice.auth, body: { domain: "https://DUP.example/" } });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toBe("domain https://dup.example is already whitelisted");
    expect((await call(add, { method: "POST", headers: bob.auth, body: { domain: "https://dup.example" } })).status).toBe(201);
  });

  it("updates the payout address and webhook URL, and clears them with null", async () => {
    const { auth } = await signUp();
    const { domainId } = (await call(add, { method: "POST", headers: auth, body: { domain: "https://pay.example" } })).body.data;
    const params = { id: String(domainId) };
    const set = await call(patch, {
      method: "PATCH",
      headers: auth,
      params,
      body: { payoutAddress: PAYOUT.toLowerCase(), webhookUrl: "https://pay.example/hooks" },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ payoutAddress: PAYOUT, webhookUrl: "https://pay.example/hooks" });
    const cleared = await call(patch, { method: "PATCH", headers: auth, params, body: { webhookUrl: null } });
    expect(cleared.body.data).toMatchObject({ payoutAddress: PAYOUT, webhookUrl: null });

    for (const [body, message] of [
      [{ payoutAddress: "0xnope" }, "payoutAddress must be a 0x-prefixed"],
      [{ webhookUrl: "javascript:alert(1)" }, "webhookUrl must be an http(s) URL"],
      [{}, "send payoutAddress and/or webhookUrl"],
    ] as const) {
      const res = await call(patch, { method: "PATCH", headers: auth, params, body });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    expect((await call(getOne, { headers: auth, params })).body.data).toMatchObject({ payoutAddress: PAYOUT, webhookUrl: null });
  });

  it("refuses to delete a domain with a pending payment or tokens in its withdrawal wallet, saying what to do first, and changes nothing", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
    const token = await deployTestToken(chain().url, { symbol: "DEL" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc", domain: "https://busy.example" });
    const params = { id: String(merchant.domainId) };
    const session = await call(createPayment, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "1" },
    });
    const pending = await call(remove, { method: "DELETE", headers: merchant.auth, params });
    expect(pending.status).toBe(400);
    expect(pending.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "https://busy.example cannot be deleted yet: 1 payment session(s) are still pending: cancel them or let them end",
    });

    await call(cancelPayment, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      params: { sessionId: session.body.data.sessionId },
    });
    await payTo(chain().url, token, merchant.withdrawalAddress as Address, parseUnits("2.5", 18));
    const funded = await call(remove, { method: "DELETE", headers: merchant.auth, params });
    expect(funded.status).toBe(400);
    expect(funded.body.error.message).toBe(
      `https://busy.example cannot be deleted yet: its withdrawal wallet ${merchant.withdrawalAddress} holds 2.5 DEL: withdraw it first`,
    );
    expect((await call(getOne, { headers: merchant.auth, params })).status).toBe(200); // still there
  });

  it("deletes a domain: gone from the list and NOT_FOUND afterwards; the origin can be added again", async () => {
    const { auth } = await signUp();
    const { domainId } = (await call(add, { method: "POST", headers: auth, body: { domain: "https://gone.example" } })).body.data;
    const params = { id: String(domainId) };
    const res = await call(remove, { method: "DELETE", headers: auth, params });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ message: "domain removed from the whitelist", domainId });
    expect((await call(list, { headers: auth })).body.data).toEqual([]);
    expect((await call(getOne, { headers: auth, params })).status).toBe(404);
    expect((await call(remove, { method: "DELETE", headers: auth, params })).status).toBe(404);
    const again = await call(add, { method: "POST", headers: auth, body: { domain: "https://gone.example" } });
    expect(again.status).toBe(201);
    expect(again.body.data.domainId).not.toBe(domainId); // a new wallet: the old one is never reused
  });

  it("keeps users apart: B can neither read, change nor delete A's domain (404)", async () => {
    const alice = await signUp();
    const bob = await signUp();
    const { domainId } = (await call(add, { method: "POST", headers: alice.auth, body: { domain: "https://alice.example" } })).body.data;
    const params = { id: String(domainId) };
    expect((await call(list, { headers: bob.auth })).body.data).toEqual([]);
    for (const res of [
      await call(getOne, { headers: bob.auth, params }),
      await call(patch, { method: "PATCH", headers: bob.auth, params, body: { payoutAddress: PAYOUT } }),
      await call(remove, { method: "DELETE", headers: bob.auth, params }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: "NOT_FOUND", message: "domain not found", reason: "not-found" });
    }
    expect((await call(getOne, { headers: alice.auth, params })).body.data.payoutAddress).toBeNull();
    expect((await call(getOne, { headers: alice.auth, params: { id: "x1" } })).status).toBe(400);
  });
});
