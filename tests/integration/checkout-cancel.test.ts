import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as payerCancel } from "@/app/api/checkout/[sessionId]/cancel/route";
import { GET as checkout } from "@/app/api/checkout/[sessionId]/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { paymentSessions } from "@/lib/db/schema";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

/** Whom the payer pays (the checkout's data), and the payer's own cancel. */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });

let merchant: Merchant;
const key = () => ({ "x-api-key": merchant.apiKey });

async function newSession(extra: Record<string, unknown> = {}) {
  const res = await call(create, { method: "POST", headers: key(), body: { tokenId: merchant.tokenId, amount: "5", ...extra } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data.sessionId as string;
}

const sessionRow = async (id: string) => (await db().select().from(paymentSessions).where(eq(paymentSessions.id, id)))[0];

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  merchant = await setUpMerchant({
    contractAddress: await deployTestToken(chain().url, { symbol: "USDT" }),
    network: "bsc",
    domain: "https://shop.example.com:8443",
  });
});

describe("GET /api/checkout/:sessionId: whom the payer pays", () => {
  it("names the shop's host, the description (line breaks kept) and the order, and where to go back", async () => {
    const sessionId = await newSession({ description: "2 coffees\n1 croissant", orderId: "ORD-10042" });
    const { body } = await call(checkout, { params: { sessionId } });
    expect(body.data).toMatchObject({
      shopHost: "shop.example.com:8443",
      description: "2 coffees\n1 croissant",
      orderId: "ORD-10042",
      redirectUrl: null,
      shopUrl: "https://shop.example.com:8443",
      completedAt: null,
    });
    expect(JSON.stringify(body.data)).not.toContain(merchant.withdrawalAddress);
  });

  it("keeps the redirectUrl (for a completed payment) apart from the shop's origin, and has no description or order when none was given", async () => {
    const sessionId = await newSession({ redirectUrl: "https://shop.example.com:8443/thanks" });
    const { body } = await call(checkout, { params: { sessionId } });
    expect(body.data).toMatchObject({
      description: null,
      orderId: null,
      redirectUrl: "https://shop.example.com:8443/thanks",
      shopUrl: "https://shop.example.com:8443",
    });
  });
});

describe("POST /api/checkout/:sessionId/cancel (the payer's cancel)", () => {
  let sessionId: string;
  beforeEach(async () => {
    sessionId = await newSession({ redirectUrl: "https://shop.example.com:8443/thanks" });
  });

  it("cancels a pending session like the API's cancel (the merchant's status says so) and goes back to the shop's origin", async () => {
    const res = await call(payerCancel, { method: "POST", params: { sessionId } });
    expect(res.status).toBe(200);
    // Not the redirectUrl: shops read a visit there as a completed payment.
    expect(res.body.data).toEqual({ status: "cancelled", returnUrl: "https://shop.example.com:8443" });
    const row = await sessionRow(sessionId);
    expect(row?.status).toBe("cancelled");
    expect(row?.cancelledAtBlock).not.toBeNull(); // a transfer already mined still counts
    expect((await call(status, { headers: key(), params: { sessionId } })).body.data.status).toBe("cancelled");
  });

  it("refuses a second cancel, a completed or expired session, and changes nothing", async () => {
    await call(payerCancel, { method: "POST", params: { sessionId } });
    const again = await call(payerCancel, { method: "POST", params: { sessionId } });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: "VALIDATION_ERROR", message: "this payment is already cancelled; nothing changed" });

    const completed = await newSession();
    await db()
      .update(paymentSessions)
      .set({ status: "completed", receivedAmount: 5n * 10n ** 18n, completedAt: new Date() })
      .where(eq(paymentSessions.id, completed));
    const refused = await call(payerCancel, { method: "POST", params: { sessionId: completed } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe("this payment is already completed; nothing changed");
    expect((await sessionRow(completed))?.status).toBe("completed");

    const expired = await newSession();
    await db()
      .update(paymentSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentSessions.id, expired));
    expect((await call(payerCancel, { method: "POST", params: { sessionId: expired } })).body.error.message).toBe(
      "this payment is already expired; nothing changed",
    );
    expect((await sessionRow(expired))?.status).toBe("expired");
  });

  it("refuses once part of the amount has arrived: only the shop can settle the payer's money", async () => {
    await db()
      .update(paymentSessions)
      .set({ receivedAmount: 10n ** 18n })
      .where(eq(paymentSessions.id, sessionId));
    const res = await call(payerCancel, { method: "POST", params: { sessionId } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/part of this payment has already arrived/);
    expect((await sessionRow(sessionId))?.status).toBe("pending");
  });

  it("answers 404 for an unknown session and 400 for a malformed id", async () => {
    expect((await call(payerCancel, { method: "POST", params: { sessionId: crypto.randomUUID() } })).status).toBe(404);
    expect((await call(payerCancel, { method: "POST", params: { sessionId: "nope" } })).status).toBe(400);
  });
});
