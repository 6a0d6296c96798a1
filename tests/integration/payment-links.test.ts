/**
 * Payment links (docs/design.md §19): the merchant manages them over /api/user/payment-links; a payer
 * opens /api/links/:slug and "Pay" creates a fresh session marked with the link, which counts in
 * the link's figures once paid on anvil; webhooks carry the link id in the metadata. Inactive
 * links create nothing; bad input changes nothing; one client address is rate-limited.
 */
import { eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as pay } from "@/app/api/links/[slug]/pay/route";
import { GET as linkPage } from "@/app/api/links/[slug]/route";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { DELETE as deactivate, GET as getLink, PATCH as patchLink } from "@/app/api/user/payment-links/[id]/route";
import { POST as createLink, GET as listLinks } from "@/app/api/user/payment-links/route";
import { paymentLinks, paymentSessions, tokens, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { allowCatalogueToken } from "@/lib/domain/tokens/catalogue";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { type Merchant, setUpMerchant, signUp } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call, fromClient } from "../helpers/http";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;

let merchant: Merchant;
let token: Address;
const counts = async () => ({
  links: (await db().select({ id: paymentLinks.id }).from(paymentLinks)).length,
  sessions: (await db().select({ id: paymentSessions.id }).from(paymentSessions)).length,
});
let clients = 0;
const payReq = (slug: string, body: Record<string, unknown> = {}, ip = `198.51.100.${++clients % 250}`) =>
  call(pay, { method: "POST", params: { slug }, body, headers: fromClient(ip) });
const newLink = (body: Record<string, unknown>) =>
  call(createLink, { method: "POST", headers: merchant.auth, body: { tokenId: merchant.tokenId, ...body } });

beforeAll(async () => {
  useConfig({
    BSC_RPC_URL: chain().url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    CONFIRMATIONS: "1",
    WEBHOOK_ALLOW_PRIVATE: "true",
  });
  await fundGasTank(chain().url);
  token = await deployTestToken(chain().url, { symbol: "LNK" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
  await call(patchDomain, {
    method: "PATCH",
    headers: merchant.auth,
    params: { id: String(merchant.domainId) },
    body: { webhookUrl: "http://127.0.0.1:9/hooks", payoutAddress: MERCHANT_WALLET },
  });
});

describe("a payment link", () => {
  it("creates a fresh session per Pay, marked with the link, and counts it once paid", async () => {
    const created = await newLink({ title: "Coffee beans, 1 kg", description: "Roasted this week", amount: "12.5" });
    expect(created.status).toBe(201);
    const link = created.body.data;
    expect(link).toMatchObject({
      title: "Coffee beans, 1 kg",
      amount: "12.5",
      minAmount: null,
      token: "LNK",
      active: true,
      domainId: merchant.domainId,
      stats: { payments: 0, received: "0", lastPaymentAt: null },
    });
    expect(link.url).toMatch(new RegExp(`/l/${link.slug}$`));
    expect(link.slug).toMatch(/^[A-Za-z0-9_-]{12}$/);

    const page = await call(linkPage, { params: { slug: link.slug } });
    expect(page.body.data).toMatchObject({ title: "Coffee beans, 1 kg", amount: "12.5", merchant: "shop.example.com", active: true });

    const first = await payReq(link.slug, { amount: "1" }); // a fixed price ignores the payer's amount
    const second = await payReq(link.slug);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ amount: "12.5", description: "Coffee beans, 1 kg\nRoasted this week" });
    expect(second.body.data.sessionId).not.toBe(first.body.data.sessionId);
    const [session] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, first.body.data.sessionId));
    expect(session).toMatchObject({ paymentLinkId: link.linkId, apiKeyId: null, metadata: { paymentLinkId: link.linkId } });

    await chain().client.waitForTransactionReceipt({
      hash: await payTo(chain().url, token, first.body.data.depositAddress, parseUnits("12.5", 18)),
    });
    await runEngine(db(), chain().url);
    const after = await call(getLink, { headers: merchant.auth, params: { id: String(link.linkId) } });
    expect(after.body.data.stats).toMatchObject({ payments: 1, received: "12.5", lastPaymentAt: expect.any(String) });

    const [endpoint] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.domainId, merchant.domainId));
    const completed = (
      await db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint?.id ?? -1))
    )
      .map((d) => JSON.parse(d.payload) as { type: string; data: { sessionId: string; metadata: Record<string, unknown> } })
      .find((e) => e.type === "payment.completed" && e.data.sessionId === first.body.data.sessionId);
    expect(completed?.data.metadata).toEqual({ paymentLinkId: link.linkId, paymentLink: link.slug });
  });

  it("lets the payer choose an amount at or above the minimum", async () => {
    const link = (await newLink({ title: "Tip jar", minAmount: "5" })).body.data;
    expect(link).toMatchObject({ amount: null, minAmount: "5" });
    const before = await counts();
    const missing = await payReq(link.slug);
    const low = await payReq(link.slug, { amount: "4.99" });
    const bad = await payReq(link.slug, { amount: "lots" });
    expect([missing.status, low.status, bad.status]).toEqual([400, 400, 400]);
    expect(low.body.error.message).toContain("at least 5 LNK");
    expect(await counts()).toEqual(before);
    const chosen = await payReq(link.slug, { amount: "7.25" });
    expect(chosen.status).toBe(201);
    expect(chosen.body.data.amount).toBe("7.25");
  });

  it("answers a deactivated link clearly and creates nothing; the merchant may turn it on again", async () => {
    const link = (await newLink({ title: "Workshop seat", amount: "30" })).body.data;
    const off = await call(deactivate, { method: "DELETE", headers: merchant.auth, params: { id: String(link.linkId) } });
    expect(off.body.data.active).toBe(false);
    const before = await counts();
    const refused = await payReq(link.slug);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe("this payment link is no longer active");
    expect((await call(linkPage, { params: { slug: link.slug } })).body.data.active).toBe(false);
    expect(await counts()).toEqual(before);
    const on = await call(patchLink, {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: String(link.linkId) },
      body: { active: true },
    });
    expect(on.body.data.active).toBe(true);
    expect((await payReq(link.slug)).status).toBe(201);
  });

  it("updates a link's price as a whole: a fixed amount or a minimum, never both", async () => {
    const link = (await newLink({ title: "Poster", amount: "3" })).body.data;
    const patch = (body: Record<string, unknown>) =>
      call(patchLink, { method: "PATCH", headers: merchant.auth, params: { id: String(link.linkId) }, body });
    const both = await patch({ minAmount: "2" });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain("not both");
    const open = await patch({ amount: null, minAmount: "2", title: "Poster (pay what you want)" });
    expect(open.body.data).toMatchObject({ amount: null, minAmount: "2", title: "Poster (pay what you want)" });
    const listed = await call(listLinks, { headers: merchant.auth });
    expect(listed.body.data.items.map((l: { linkId: number }) => l.linkId)).toContain(link.linkId);
  });
});

describe("a link's token", () => {
  it("may change until the link has a payment; then it is refused, naming tokenId, and nothing changes", async () => {
    const other = await deployTestToken(chain().url, { symbol: "OTH" });
    await allowCatalogueToken(db(), "bsc", other);
    const { POST: registerToken } = await import("@/app/api/user/tokens/route");
    const otherTokenId = (
      await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: other, network: "bsc" } })
    ).body.data.tokenId as number;
    const link = (await newLink({ title: "Sticker", amount: "2" })).body.data;
    const patch = (body: Record<string, unknown>) =>
      call(patchLink, { method: "PATCH", headers: merchant.auth, params: { id: String(link.linkId) }, body });

    const unused = await patch({ tokenId: otherTokenId });
    expect(unused.status).toBe(200);
    expect(unused.body.data).toMatchObject({ tokenId: otherTokenId, token: "OTH", amount: "2" });
    const back = await patch({ tokenId: merchant.tokenId });
    expect(back.body.data).toMatchObject({ tokenId: merchant.tokenId, token: "LNK" });

    expect((await payReq(link.slug)).status).toBe(201);
    const refused = await patch({ tokenId: otherTokenId, title: "Sticker (OTH)" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "tokenId", message: expect.any(String) }] });
    expect(refused.body.error.message).toMatch(/^tokenId cannot change: this link already has payments in LNK/);
    const unchanged = await call(getLink, { headers: merchant.auth, params: { id: String(link.linkId) } });
    expect(unchanged.body.data).toMatchObject({ tokenId: merchant.tokenId, token: "LNK", amount: "2", title: "Sticker" });
    // The same token again, or any other field, is still a change like any other.
    expect((await patch({ tokenId: merchant.tokenId, title: "Sticker, large" })).body.data.title).toBe("Sticker, large");
  });

  it("counts in its figures only payments in its token", async () => {
    const link = (await newLink({ title: "Badge", amount: "1" })).body.data;
    const paid = (await payReq(link.slug)).body.data.sessionId as string;
    const [otherToken] = await db().select({ id: tokens.id }).from(tokens).where(eq(tokens.symbol, "OTH"));
    if (!otherToken) throw new Error("the OTH token of the test above is not registered");
    // As if a Pay had read the link just before its token changed: a session in another token.
    await db()
      .update(paymentSessions)
      .set({ status: "completed", receivedAmount: parseUnits("1", 18), completedAt: new Date(), tokenId: otherToken.id })
      .where(eq(paymentSessions.id, paid));
    const figures = await call(getLink, { headers: merchant.auth, params: { id: String(link.linkId) } });
    expect(figures.body.data.stats).toEqual({ payments: 0, received: "0", lastPaymentAt: null });
  });
});

describe("bad input", () => {
  it("answers a clear error and changes nothing", async () => {
    const link = (await newLink({ title: "Mug", amount: "9" })).body.data;
    const stranger = await signUp();
    const before = await counts();
    const cases: [Promise<{ status: number; body: any }>, number, string][] = [
      [newLink({ title: "Both", amount: "1", minAmount: "1" }), 400, "not both"],
      [newLink({ title: "Neither" }), 400, "give amount"],
      [newLink({ title: "", amount: "1" }), 400, "title must not be empty"],
      [newLink({ title: "x".repeat(101), amount: "1" }), 400, "title must be at most 100 characters"],
      [newLink({ title: "Bad\u0000", amount: "1" }), 400, "title"],
      [newLink({ title: "Zero", amount: "0" }), 400, "amount must be greater than 0"],
      [newLink({ title: "Bad URL", amount: "1", redirectUrl: "javascript:alert(1)" }), 400, "redirectUrl must be an http(s) URL"],
      [newLink({ title: "No token", amount: "1", tokenId: 999_999 }), 400, "unknown tokenId"],
      [
        call(createLink, { method: "POST", headers: stranger.auth, body: { title: "Theirs", tokenId: merchant.tokenId, amount: "1" } }),
        400,
        "unknown tokenId",
      ],
      [newLink({ title: "Other domain", amount: "1", domainId: 999_999 }), 404, "domain not found"],
      [call(getLink, { headers: stranger.auth, params: { id: String(link.linkId) } }), 404, "payment link not found"],
      [
        call(patchLink, { method: "PATCH", headers: stranger.auth, params: { id: String(link.linkId) }, body: { active: false } }),
        404,
        "payment link not found",
      ],
      [call(deactivate, { method: "DELETE", headers: stranger.auth, params: { id: String(link.linkId) } }), 404, "payment link not found"],
      [payReq("no-such-link-1"), 404, "payment link not found"],
      [payReq("../../etc"), 404, "payment link not found"],
      [call(linkPage, { params: { slug: "nope-nope-nope" } }), 404, "payment link not found"],
    ];
    for (const [request, status, message] of cases) {
      const res = await request;
      expect(res.status, message).toBe(status);
      expect(res.body.error.message).toContain(message);
    }
    expect(await counts()).toEqual(before);
    const unchanged = await call(getLink, { headers: merchant.auth, params: { id: String(link.linkId) } });
    expect(unchanged.body.data).toMatchObject({ active: true, amount: "9", title: "Mug" });
  });

  it("limits the sessions one client address may start", async () => {
    await resetRateLimits();
    const link = (await newLink({ title: "Stickers", amount: "1" })).body.data;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await payReq(link.slug, {}, "203.0.113.77")).status);
    expect(statuses).toEqual([...Array(10).fill(201), 429, 429]);
    // Another client is not held up.
    expect((await payReq(link.slug, {}, "203.0.113.78")).status).toBe(201);
  });
});
