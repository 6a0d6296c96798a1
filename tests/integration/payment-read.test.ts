import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as checkout } from "@/app/api/checkout/[sessionId]/route";
import { POST as cancel } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { GET as history } from "@/app/api/v1/payment/history/route";
import { paymentSessions } from "@/lib/db/schema";
import { type Merchant, newApiKey, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const config = () => useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });

let merchant: Merchant;
const key = () => ({ "x-api-key": merchant.apiKey });

async function newSession(headers = key(), amount = "5") {
  const res = await call(create, { method: "POST", headers, body: { tokenId: merchant.tokenId, amount, metadata: { n: amount } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data.sessionId as string;
}

async function setExpiresAt(sessionId: string, date: Date) {
  await db().update(paymentSessions).set({ expiresAt: date }).where(eq(paymentSessions.id, sessionId));
}

beforeAll(async () => {
  config();
  merchant = await setUpMerchant({ contractAddress: await deployTestToken(chain().url, { symbol: "USDT" }), network: "bsc" });
});

describe("GET /api/v1/payment/:sessionId/status", () => {
  it("answers the session's state with null receivedAmount and txHash until something arrives", async () => {
    const sessionId = await newSession();
    const res = await call(status, { headers: key(), params: { sessionId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        sessionId,
        status: "pending",
        amount: "5",
        receivedAmount: null,
        txHash: null,
        expiresAt: expect.any(String),
        token: "USDT",
        overpaid: false,
        late: false,
        lateAmount: null,
        description: null,
        orderId: null,
      },
    });
  });

  it("reads a pending session past expiresAt as expired, and persists it", async () => {
    const sessionId = await newSession();
    await setExpiresAt(sessionId, new Date(Date.now() - 1000));
    const res = await call(status, { headers: key(), params: { sessionId } });
    expect(res.body.data.status).toBe("expired");
    const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, sessionId));
    expect(row!.status).toBe("expired");
  });

  it("is scoped to the API key: another key of the same user gets NOT_FOUND; a malformed id is VALIDATION_ERROR", async () => {
    const sessionId = await newSession();
    const second = await newApiKey(merchant.auth);
    const res = await call(status, { headers: { "x-api-key": second.key }, params: { sessionId } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: "NOT_FOUND", message: "payment session not found", reason: "not-found" });
    const unknown = await call(status, { headers: key(), params: { sessionId: crypto.randomUUID() } });
    expect(unknown.status).toBe(404);
    const malformed = await call(status, { headers: key(), params: { sessionId: "123" } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe("VALIDATION_ERROR");
    expect((await call(status, { params: { sessionId } })).status).toBe(401);
  });
});

describe("POST /api/v1/payment/:sessionId/cancel", () => {
  it("cancels a pending session; a second cancel changes nothing and says so", async () => {
    const sessionId = await newSession();
    const res = await call(cancel, { method: "POST", headers: key(), params: { sessionId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { message: "payment session cancelled", status: "cancelled" } });
    const again = await call(cancel, { method: "POST", headers: key(), params: { sessionId } });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ message: "payment session is already cancelled; nothing changed", status: "cancelled" });
    expect((await call(status, { headers: key(), params: { sessionId } })).body.data.status).toBe("cancelled");
  });

  it("leaves expired and completed sessions as they are", async () => {
    const expired = await newSession();
    await setExpiresAt(expired, new Date(Date.now() - 1000));
    const res = await call(cancel, { method: "POST", headers: key(), params: { sessionId: expired } });
    expect(res.body.data).toEqual({ message: "payment session is already expired; nothing changed", status: "expired" });
    const completed = await newSession();
    await db().update(paymentSessions).set({ status: "completed" }).where(eq(paymentSessions.id, completed));
    const done = await call(cancel, { method: "POST", headers: key(), params: { sessionId: completed } });
    expect(done.body.data.status).toBe("completed");
    expect((await call(status, { headers: key(), params: { sessionId: completed } })).body.data.status).toBe("completed");
  });

  it("is scoped to the API key", async () => {
    const sessionId = await newSession();
    const second = await newApiKey(merchant.auth);
    const res = await call(cancel, { method: "POST", headers: { "x-api-key": second.key }, params: { sessionId } });
    expect(res.status).toBe(404);
    expect((await call(status, { headers: key(), params: { sessionId } })).body.data.status).toBe("pending");
  });
});

describe("GET /api/v1/payment/history", () => {
  it("pages the key's sessions newest first, with a correct meta, filtered by status", async () => {
    const fresh = await newApiKey(merchant.auth);
    const headers = { "x-api-key": fresh.key };
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push(await newSession(headers, String(i)));
    await call(cancel, { method: "POST", headers, params: { sessionId: ids[1]! } });
    await setExpiresAt(ids[2]!, new Date(Date.now() - 1000));

    const all = await call(history, { headers, path: "/api/v1/payment/history" });
    expect(all.status).toBe(200);
    expect(all.body.data.meta).toEqual({ page: 1, limit: 20, total: 5, pages: 1 });
    expect(all.body.data.items.map((s: { sessionId: string }) => s.sessionId)).toEqual([...ids].reverse());
    expect(all.body.data.items[0]).toMatchObject({ amount: "5", token: "USDT", metadata: { n: "5" }, receivedAmount: null, txHash: null });
    expect(all.body.data.items[0].ephemeralAddress).toBe(all.body.data.items[0].depositAddress);

    const page2 = await call(history, { headers, path: "/api/v1/payment/history?page=2&limit=2" });
    expect(page2.body.data.meta).toEqual({ page: 2, limit: 2, total: 5, pages: 3 });
    expect(page2.body.data.items.map((s: { sessionId: string }) => s.sessionId)).toEqual([ids[2], ids[1]]);

    const pending = await call(history, { headers, path: "/api/v1/payment/history?status=pending" });
    expect(pending.body.data.meta.total).toBe(3);
    const expired = await call(history, { headers, path: "/api/v1/payment/history?status=expired" });
    expect(expired.body.data.items.map((s: { sessionId: string }) => s.sessionId)).toEqual([ids[2]]);
    const cancelled = await call(history, { headers, path: "/api/v1/payment/history?status=cancelled" });
    expect(cancelled.body.data.items.map((s: { sessionId: string }) => s.sessionId)).toEqual([ids[1]]);
    const beyond = await call(history, { headers, path: "/api/v1/payment/history?page=9" });
    expect(beyond.body.data).toEqual({ items: [], meta: { page: 9, limit: 20, total: 5, pages: 1 } });
  });

  it.each([
    ["status=failed", "status must be one of pending, completed, expired, cancelled"],
    ["limit=101", "limit must be an integer from 1 to 100"],
    ["limit=0", "limit must be an integer from 1 to 100"],
    ["page=0", "page must be an integer from 1"],
    ["page=abc", "page must be an integer from 1"],
    ["limit=2.5", "limit must be an integer from 1 to 100"],
  ])("refuses ?%s with VALIDATION_ERROR", async (query, message) => {
    const res = await call(history, { headers: key(), path: `/api/v1/payment/history?${query}` });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.message).toContain(message);
  });

  it("shows nothing of another key's sessions", async () => {
    const other = await newApiKey(merchant.auth);
    const res = await call(history, { headers: { "x-api-key": other.key }, path: "/api/v1/payment/history" });
    expect(res.body.data).toEqual({ items: [], meta: { page: 1, limit: 20, total: 0, pages: 0 } });
  });
});

describe("GET /api/checkout/:sessionId", () => {
  it("gives the hosted page what it needs and nothing about the merchant", async () => {
    const sessionId = await newSession();
    const res = await call(checkout, { params: { sessionId } });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      sessionId,
      status: "pending",
      amount: "5",
      token: "USDT",
      network: "bsc",
      chainId: 56,
      receivedAmount: null,
      redirectUrl: null,
    });
    expect(data.depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(data.qrCode).toMatch(/^data:image\/png;base64,/);
    const text = JSON.stringify(data);
    for (const secret of [merchant.withdrawalAddress, merchant.email, "metadata", "forwardTo", "merchantWallet", "domain"]) {
      expect(text).not.toContain(secret);
    }
    expect((await call(checkout, { params: { sessionId: crypto.randomUUID() } })).status).toBe(404);
    expect((await call(checkout, { params: { sessionId: "nope" } })).status).toBe(400);
  });
});
