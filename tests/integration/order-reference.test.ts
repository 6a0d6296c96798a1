/**
 * A payment's `description` and `orderId`: given on create, they come back in the
 * create answer, the status, the history (which can also be filtered by orderId), the webhook
 * events and the dashboard (its rows, detail and search, which also covers metadata values). Bad
 * values are refused and create nothing.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as cancel } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { GET as history } from "@/app/api/v1/payment/history/route";
import { paymentSessions, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { createPaymentSession } from "@/lib/domain/payments/create-session";
import { createPaymentSchema } from "@/lib/domain/payments/schemas";
import { getUserPayment } from "@/lib/web/dashboard/payments/payment-detail";
import { listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });

let merchant: Merchant;
const sessionCount = async () => (await db().select({ id: paymentSessions.id }).from(paymentSessions)).length;
const search = (q: string) => listUserPayments(db(), merchant.userId, paymentFiltersSchema.parse({ q }));

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", WEBHOOK_ALLOW_PRIVATE: "true" });
  merchant = await setUpMerchant({ contractAddress: await deployTestToken(chain().url), network: "bsc" });
  await call(patchDomain, {
    method: "PATCH",
    headers: merchant.auth,
    params: { id: String(merchant.domainId) },
    body: { webhookUrl: "http://127.0.0.1:9/hooks" },
  });
});

describe("description and orderId", () => {
  it("round-trip through create, status, history, webhooks and the dashboard", async () => {
    const headers = { "x-api-key": merchant.apiKey };
    const created = await call(create, {
      method: "POST",
      headers,
      body: {
        tokenId: merchant.tokenId,
        amount: "12.5",
        description: "  2 × Flat white\nTo take away  ",
        orderId: "ORD-10042",
        metadata: { customer: "ada@example.com" },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ description: "2 × Flat white\nTo take away", orderId: "ORD-10042" });
    const { sessionId } = created.body.data;

    const read = await call(status, { headers, params: { sessionId } });
    expect(read.body.data).toMatchObject({ description: "2 × Flat white\nTo take away", orderId: "ORD-10042" });

    const other = await call(create, { method: "POST", headers, body: { tokenId: merchant.tokenId, amount: "1" } });
    expect(other.body.data).toMatchObject({ description: null, orderId: null });
    const listed = await call(history, { headers, path: "/?orderId=ORD-10042" });
    expect(listed.body.data.items.map((i: { sessionId: string }) => i.sessionId)).toEqual([sessionId]);
    expect(listed.body.data.items[0]).toMatchObject({ orderId: "ORD-10042", description: "2 × Flat white\nTo take away" });
    const all = await call(history, { headers });
    expect(all.body.data.meta.total).toBe(2);

    await call(cancel, { method: "POST", headers, params: { sessionId } });
    const [endpoint] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.domainId, merchant.domainId));
    const deliveries = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint?.id ?? -1));
    const cancelled = deliveries.find((d) => d.eventType === "payment.cancelled");
    expect(JSON.parse(cancelled?.payload ?? "{}")).toMatchObject({
      data: { sessionId, orderId: "ORD-10042", description: "2 × Flat white\nTo take away" },
    });

    const detail = await getUserPayment(db(), merchant.userId, sessionId);
    expect(detail).toMatchObject({ orderId: "ORD-10042", description: "2 × Flat white\nTo take away", createdByApiKey: true });
    // Search is served by indexes: an order reference's start, a metadata value whole; not descriptions.
    for (const q of ["ORD-10042", "ord-100", "ada@example.com", "customer:ada@example.com"]) {
      const found = await search(q);
      expect(
        found.items.map((row) => row.sessionId),
        q,
      ).toEqual([sessionId]);
      expect(found.items[0]).toMatchObject({ orderId: "ORD-10042", metadata: { customer: "ada@example.com" } });
    }
    expect((await search("nothing-like-it")).items).toEqual([]);
    expect((await search("flat white")).items).toEqual([]);
    // LIKE's wildcards are the merchant's text, not patterns.
    expect((await search("%")).items).toEqual([]);
  });

  it("refuses bad values with VALIDATION_ERROR naming the field, and creates nothing", async () => {
    const before = await sessionCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ orderId: "" }, "orderId must not be empty"],
      [{ orderId: "   " }, "orderId must not be empty"],
      [{ orderId: "x".repeat(101) }, "orderId must be at most 100 characters"],
      [{ orderId: "A\nB" }, "orderId must be one line"],
      [{ orderId: "A\u2028B" }, "orderId must be one line"],
      [{ orderId: "A\u0085B" }, "orderId must be one line"],
      [{ orderId: "ORD\t7" }, "orderId must not contain control characters"],
      [{ orderId: "ORD-\u202e10042" }, "orderId must not contain bidirectional control characters"],
      [{ description: "C1 \u009b31m" }, "description must not contain control characters"],
      [{ description: "Refund to \u2066evil\u2069" }, "description must not contain bidirectional control characters"],
      [{ orderId: 42 }, "orderId must be a string"],
      [{ description: "x".repeat(501) }, "description must be at most 500 characters"],
      [{ description: "bell\u0007" }, "description must not contain control characters"],
      [{ description: "\u001b[31mred" }, "description must not contain control characters"],
      [{ description: ["a"] }, "description must be a string"],
    ];
    for (const [extra, message] of cases) {
      const res = await call(create, {
        method: "POST",
        headers: { "x-api-key": merchant.apiKey },
        body: { tokenId: merchant.tokenId, amount: "1", ...extra },
      });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.message).toContain(message);
    }
    const tooLongFilter = await call(history, { headers: { "x-api-key": merchant.apiKey }, path: `/?orderId=${"x".repeat(101)}` });
    expect(tooLongFilter.status).toBe(400);
    expect(await sessionCount()).toBe(before);
  });

  it("keeps a description's CRLF line breaks as \\n and its tabs (a 201, not a 400)", async () => {
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "1", description: "Item\tQty\r\nTea\t2\r\n" },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.description).toBe("Item\tQty\nTea\t2");
  });

  it("searches the metadata's values, nested ones too, never its keys", async () => {
    const made = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "1", metadata: { cart: { lines: [{ sku: "PN-4711" }] }, gift: true, table: 12 } },
    });
    const { sessionId } = made.body.data;
    for (const q of ["PN-4711", "true", "12", "table:12", "gift:true"])
      expect(
        (await search(q)).items.map((r) => r.sessionId),
        q,
      ).toContain(sessionId);
    // A value matches whole and as written (an index serves that; a substring search would scan the history).
    for (const q of ["pn-4711", "4711"])
      expect(
        (await search(q)).items.map((r) => r.sessionId),
        q,
      ).not.toContain(sessionId);
    for (const q of ["cart", "lines", "sku", "gift", "table", "customer"]) expect((await search(q)).items, q).toEqual([]);
  });

  it("lets the dashboard create a session without an API key: no key's history lists it, its user sees it", async () => {
    const input = createPaymentSchema.parse({ tokenId: merchant.tokenId, amount: "4", description: "Invoice 7" });
    const made = await createPaymentSession(db(), { userId: merchant.userId, apiKeyId: null }, input, null);
    const detail = await getUserPayment(db(), merchant.userId, made.sessionId);
    expect(detail).toMatchObject({ description: "Invoice 7", createdByApiKey: false, status: "pending" });
    const viaKey = await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId: made.sessionId } });
    expect(viaKey.status).toBe(404);
    const listed = await call(history, { headers: { "x-api-key": merchant.apiKey } });
    expect(listed.body.data.items.map((i: { sessionId: string }) => i.sessionId)).not.toContain(made.sessionId);
  });
});
