import { describe, expect, it } from "vitest";
import { POST as createKey } from "@/app/api/user/api-keys/route";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { POST as sendWithdrawal } from "@/app/api/v1/withdrawal/send/route";
import { AppError } from "@/lib/base/errors";
import { apiKeys, domains, paymentSessions } from "@/lib/db/schema";
import { getUserWithdrawal } from "@/lib/domain/withdrawals/user-withdrawals";
import { getUserPayment } from "@/lib/web/dashboard/payments/payment-detail";
import { listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

/**
 * Input that PostgreSQL itself refuses — a NUL character in text or jsonb, a uuid column compared
 * with 36 characters that are not a UUID — used to surface as 500 INTERNAL_ERROR. Each is a clear
 * VALIDATION_ERROR (or not found) that changes nothing.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const NUL = "\u0000";
const NOT_A_UUID = "-".repeat(36);

describe("a NUL character in a field", () => {
  it("answers VALIDATION_ERROR naming the field, for metadata, redirectUrl, webhookUrl and an API key's name, and records nothing", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
    const token = await deployTestToken(chain().url, { symbol: "NUL" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    const headers = { "x-api-key": merchant.apiKey };
    const counts = async () => [
      (await db().select().from(paymentSessions)).length,
      (await db().select().from(apiKeys)).length,
      (await db().select({ url: domains.webhookUrl }).from(domains)).map((d) => d.url),
    ];
    const before = await counts();
    for (const [body, field] of [
      [{ tokenId: merchant.tokenId, amount: "1", metadata: { order: `A${NUL}1` } }, "metadata.order"],
      [{ tokenId: merchant.tokenId, amount: "1", metadata: { [`k${NUL}`]: "v" } }, `metadata.k${NUL}`],
      [{ tokenId: merchant.tokenId, amount: "1", redirectUrl: `https://shop.example.com/${NUL}done` }, "redirectUrl"],
    ] as const) {
      const res = await call(create, { method: "POST", headers, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", message: `${field} must not contain a NUL character` });
    }
    const webhook = await call(patchDomain, {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: String(merchant.domainId) },
      body: { webhookUrl: `https://hooks.example.com/${NUL}` },
    });
    expect(webhook.status).toBe(400);
    expect(webhook.body.error.message).toBe("webhookUrl must not contain a NUL character");
    const key = await call(createKey, { method: "POST", headers: merchant.auth, body: { name: `shop${NUL}` } });
    expect(key.status).toBe(400);
    expect(key.body.error.message).toBe("name must not contain a NUL character");
    expect(await counts()).toEqual(before);
  });
});

describe("36 characters that are not a UUID", () => {
  it("are not found (not a database error) on the dashboard's payment and withdrawal pages, and match nothing in its search", async () => {
    const [user] = await db().select({ id: paymentSessions.userId }).from(paymentSessions).limit(1);
    const userId = user?.id ?? 1;
    for (const lookup of [
      () => getUserPayment(db(), userId, NOT_A_UUID),
      () => getUserWithdrawal(db(), userId, NOT_A_UUID),
      () => getUserPayment(db(), userId, "a".repeat(36)),
    ]) {
      await expect(lookup()).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.code === "NOT_FOUND");
    }
    const page = await listUserPayments(db(), userId, paymentFiltersSchema.parse({ q: NOT_A_UUID }));
    expect(page.items).toEqual([]);
  });
});

describe("ids beyond PostgreSQL's integer", () => {
  it("answers VALIDATION_ERROR for a tokenId or domainId of 2^31 or more, in bodies and paths, and records nothing", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
    const token = await deployTestToken(chain().url, { symbol: "BIG" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    const headers = { "x-api-key": merchant.apiKey };
    const sessions = async () => (await db().select().from(paymentSessions)).length;
    const before = await sessions();
    for (const tokenId of [2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER + 2]) {
      const res = await call(create, { method: "POST", headers, body: { tokenId, amount: "1" } });
      expect(res.status, String(tokenId)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
    const domainTooBig = await call(create, {
      method: "POST",
      headers,
      body: { tokenId: merchant.tokenId, amount: "1", domainId: 2 ** 31 },
    });
    expect(domainTooBig.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "domainId", message: "domainId is too large" }],
    });
    const withdrawal = await call(sendWithdrawal, {
      method: "POST",
      headers,
      body: { domainId: 2 ** 31, tokenId: merchant.tokenId, toAddress: "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097", amount: "1" },
    });
    expect(withdrawal.status).toBe(400);
    const path = await call(patchDomain, {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: String(2 ** 31) },
      body: { webhookUrl: null },
    });
    expect(path.status).toBe(400);
    expect(path.body.error.code).toBe("VALIDATION_ERROR");
    expect(await sessions()).toBe(before);
  });
});
