/**
 * Prices in the account's currency from the dashboard (docs/design.md §23). A payment: the API's
 * fiat create with no API key — quotes from the chain's feeds, the currency read from the account
 * (never from the form) — shown in that currency on the list, the payment's page and the CSV, and
 * every refusal on its field, writing nothing. A payment link: a fixed price in a currency, each
 * Pay a fiat session paid in the link's token; bad prices and a stale feed create nothing.
 */
import { and, count, eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as pay } from "@/app/api/links/[slug]/pay/route";
import { GET as linkPage } from "@/app/api/links/[slug]/route";
import { PATCH as patchLink } from "@/app/api/user/payment-links/[id]/route";
import { POST as createLink } from "@/app/api/user/payment-links/route";
import { AppError } from "@/lib/base/errors";
import { currencyFeeds, paymentLinks, paymentSessions, sessionQuotes, users } from "@/lib/db/schema";
import { getPlan } from "@/lib/domain/plans/current-plan";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { forgetMulticall, MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { createDashboardPayment, dashboardPaymentSchema } from "@/lib/web/dashboard/payments/create-payment";
import { getUserPayment } from "@/lib/web/dashboard/payments/payment-detail";
import { PAYMENTS_CSV_HEADER, paymentsCsvStream } from "@/lib/web/dashboard/payments/payments-export";
import { listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { deployTestFeed, setTestFeed } from "../helpers/feeds";
import { call, fromClient } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });

let merchant: Merchant;
let token: Address;
const feeds = { token: "0x" as Address, eur: "0x" as Address };

const form = (input: Record<string, unknown>) => dashboardPaymentSchema.parse(input);
const sessionsOf = async (userId: number) =>
  Number((await db().select({ n: count() }).from(paymentSessions).where(eq(paymentSessions.userId, userId)))[0]?.n);
const usedThisMonth = async (userId: number) => (await getPlan(db(), userId)).usage.sessionsCreated;
const setAccountCurrency = (currency: string) => db().update(users).set({ accountCurrency: currency }).where(eq(users.id, merchant.userId));

async function refusal(input: Record<string, unknown>): Promise<AppError> {
  const error = await createDashboardPayment(db(), merchant.userId, form(input)).catch((e: unknown) => e);
  expect(error, JSON.stringify(input)).toBeInstanceOf(AppError);
  return error as AppError;
}

beforeAll(async () => {
  await chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  forgetMulticall("bsc");
  token = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  feeds.token = await deployTestFeed(chain().url, "USDT / USD");
  feeds.eur = await deployTestFeed(chain().url, "EUR / USD", 125_000_000n);
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
  await tokensCommand(db(), ["feed", "bsc", token, feeds.token, "--heartbeat", "3600", "--pegged"]);
  // The bsc network's EUR row names mainnet's feed: point it at the chain's own (1 EUR = 1.25 USD).
  await db().update(currencyFeeds).set({ usdFeed: feeds.eur, heartbeatSeconds: 3600 }).where(eq(currencyFeeds.currency, "EUR"));
});

beforeEach(async () => {
  await setTestFeed(chain().url, feeds.token, 100_000_000n);
  await setAccountCurrency("USD");
});

describe("a payment priced in the account's currency, from the dashboard", () => {
  it("is the API's fiat session with no API key: quoted, counted, and shown in USD on the list, its page and the CSV", async () => {
    const [sessionsBefore, usedBefore] = [await sessionsOf(merchant.userId), await usedThisMonth(merchant.userId)];
    const made = await createDashboardPayment(
      db(),
      merchant.userId,
      // A currency sent by the form is not a field of it: the account's is used.
      form({ priceIn: "currency", amount: " 25 ", currency: "EUR", orderId: "INV-F1", tokenId: "" }),
    );
    expect(made).toMatchObject({ fiatAmount: "25.00", currency: "USD", amount: "25", token: "USDT" });
    const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, made.sessionId));
    expect(row).toMatchObject({ apiKeyId: null, currency: "USD", fiatAmount: 2500n, amount: 25n * 10n ** 18n, orderId: "INV-F1" });
    expect(await db().select().from(sessionQuotes).where(eq(sessionQuotes.sessionId, made.sessionId))).toHaveLength(1);
    expect(await sessionsOf(merchant.userId)).toBe(sessionsBefore + 1);
    expect(await usedThisMonth(merchant.userId)).toBe(usedBefore + 1);

    const listed = await listUserPayments(db(), merchant.userId, paymentFiltersSchema.parse({ q: "INV-F1" }));
    expect(listed.items.map((p) => [p.sessionId, p.currency, p.fiatAmount, p.amount, p.token, p.rate])).toEqual([
      [made.sessionId, "USD", "25.00", "25", "USDT", "1.00000000"],
    ]);
    expect(await getUserPayment(db(), merchant.userId, made.sessionId)).toMatchObject({
      createdByApiKey: false,
      currency: "USD",
      fiatAmount: "25.00",
      rate: "1.00000000",
      amount: "25",
    });

    const csv = await new Response(paymentsCsvStream(db(), merchant.userId, paymentFiltersSchema.parse({ q: "INV-F1" }))).text();
    const [header, line] = csv.trim().split(/\r?\n/);
    expect(header?.split(",")).toEqual([...PAYMENTS_CSV_HEADER]);
    const cells = Object.fromEntries(PAYMENTS_CSV_HEADER.map((name, i) => [name, line?.split(",")[i]]));
    expect(cells).toMatchObject({ sessionId: made.sessionId, currency: "USD", fiatAmount: "25.00", rate: "1.00000000", token: "USDT" });
  });

  it("is priced in the account's own currency once it is another (EUR), at its feed", async () => {
    await setAccountCurrency("EUR");
    const made = await createDashboardPayment(db(), merchant.userId, form({ priceIn: "currency", amount: "10" }));
    // 10 EUR at 1.25 USD per EUR and 1 USD per USDT: 12.5 USDT.
    expect(made).toMatchObject({ fiatAmount: "10.00", currency: "EUR", amount: "12.5", token: "USDT" });
    const [row] = await db()
      .select({ currency: paymentSessions.currency, fiatAmount: paymentSessions.fiatAmount })
      .from(paymentSessions)
      .where(and(eq(paymentSessions.id, made.sessionId), eq(paymentSessions.userId, merchant.userId)));
    expect(row).toEqual({ currency: "EUR", fiatAmount: 1000n });
  });

  it("refuses bad input on its field, in plain words, and writes nothing", async () => {
    const [sessionsBefore, usedBefore] = [await sessionsOf(merchant.userId), await usedThisMonth(merchant.userId)];
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ amount: "abc" }, "amount", /^Enter an amount such as 25\.00: digits and at most one dot/],
      [{ amount: "25 USD" }, "amount", /^Enter an amount such as 25\.00: digits and at most one dot, no commas or spaces\.$/],
      [{ amount: "0" }, "amount", /^The amount must be more than 0\.$/],
      [{ amount: "25.001" }, "amount", /^USD has 2 decimals: use at most 2 digits after the dot\.$/],
      [{ amount: "1", orderId: "A\nB" }, "orderId", /^Order reference must be one line\.$/],
      [{ amount: "1", domainId: "999999" }, "domainId", /^Choose one of your domains\.$/],
    ];
    for (const [extra, path, message] of cases) {
      const error = await refusal({ priceIn: "currency", ...extra });
      expect(error.code, JSON.stringify(extra)).toBe("VALIDATION_ERROR");
      expect(error.details?.[0]?.path, JSON.stringify(extra)).toBe(path);
      expect(error.message, JSON.stringify(extra)).toMatch(message);
    }
    // A token amount typed with a currency is told where a currency price is chosen.
    const typed = await refusal({ tokenId: String(merchant.tokenId), amount: "25 USD" });
    expect([typed.details?.[0]?.path, typed.message]).toEqual([
      "amount",
      "Enter an amount such as 10.5: digits and at most one dot, no commas or spaces. To price it in USD, choose it under “Price in”.",
    ]);
    expect(dashboardPaymentSchema.safeParse({ priceIn: "bitcoin", amount: "1" }).error?.issues[0]?.message).toBe(
      "Choose what the price is in: a token or your account's currency.",
    );
    expect(await sessionsOf(merchant.userId)).toBe(sessionsBefore);
    expect(await usedThisMonth(merchant.userId)).toBe(usedBefore);
  });

  it("says why no token can take the price when its feed is stale, and writes nothing", async () => {
    const before = await sessionsOf(merchant.userId);
    await setTestFeed(chain().url, feeds.token, 100_000_000n, 1n);
    const error = await refusal({ priceIn: "currency", amount: "25" });
    expect([error.code, error.details?.[0]?.path]).toEqual(["VALIDATION_ERROR", "amount"]);
    expect(error.message).toBe(
      "None of your tokens can take a price in USD now (USDT: its price is out of date). Try again later, or price it in a token.",
    );
    expect(await sessionsOf(merchant.userId)).toBe(before);
  });
});

describe("a payment link priced in the account's currency", () => {
  const newLink = (body: Record<string, unknown>) =>
    call(createLink, { method: "POST", headers: merchant.auth, body: { tokenId: merchant.tokenId, title: "Workshop seat", ...body } });
  const payReq = (slug: string, ip: string, browser = "browser-0123456789ab") =>
    call(pay, { method: "POST", params: { slug }, body: { browser }, headers: fromClient(ip) });
  const linkCount = async () => (await db().select({ id: paymentLinks.id }).from(paymentLinks)).length;

  it("is a fixed price in USD; each Pay is a fiat session paid in the link's token, and the same payer gets theirs back", async () => {
    const created = await newLink({ currency: "usd", amount: "25" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const link = created.body.data;
    expect(link).toMatchObject({ amount: "25.00", currency: "USD", minAmount: null, token: "USDT" });

    const page = await call(linkPage, { params: { slug: link.slug } });
    expect(page.body.data).toMatchObject({ amount: "25.00", currency: "USD", token: "USDT", minAmount: null, active: true });

    const first = await payReq(link.slug, "198.51.100.7");
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ amount: "25", token: "USDT" });
    const [session] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, first.body.data.sessionId));
    expect(session).toMatchObject({
      paymentLinkId: link.linkId,
      apiKeyId: null,
      currency: "USD",
      fiatAmount: 2500n,
      amount: 25n * 10n ** 18n,
    });
    // The same payer pressing Pay again gets their open session back, whatever the quote now.
    await setTestFeed(chain().url, feeds.token, 100_200_000n);
    expect((await payReq(link.slug, "198.51.100.7")).body.data.sessionId).toBe(first.body.data.sessionId);
    const other = await payReq(link.slug, "198.51.100.8");
    expect(other.body.data.sessionId).not.toBe(first.body.data.sessionId);

    const listed = await listUserPayments(db(), merchant.userId, paymentFiltersSchema.parse({ linkId: String(link.linkId) }));
    expect(listed.items.map((p) => [p.currency, p.fiatAmount])).toEqual([
      ["USD", "25.00"],
      ["USD", "25.00"],
    ]);
  });

  it("changes its price as a whole, back to a token amount too", async () => {
    const link = (await newLink({ currency: "USD", amount: "25" })).body.data;
    const patch = (body: Record<string, unknown>) =>
      call(patchLink, { method: "PATCH", headers: merchant.auth, params: { id: String(link.linkId) }, body });
    expect((await patch({ amount: "30" })).body.data).toMatchObject({ amount: "30.00", currency: "USD" });
    const back = (await patch({ currency: null, amount: "12" })).body.data;
    expect(back).toMatchObject({ amount: "12", minAmount: null, token: "USDT" });
    expect(back).not.toHaveProperty("currency");
  });

  it("refuses a price it cannot take, naming why, and creates nothing", async () => {
    const before = await linkCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: "USD", minAmount: "5" }, "link-fiat-fixed-only"],
      [{ currency: "XYZ", amount: "5" }, "currency-unsupported"],
      [{ currency: "USD", amount: "25.001" }, "amount-too-precise"],
      [{ currency: "USD", amount: "0" }, "amount-zero"],
      [{ currency: "USD", amount: "5", minAmount: "1" }, "link-price-both"],
    ];
    for (const [body, reason] of cases) {
      const res = await newLink(body);
      expect([res.status, res.body.error?.reason], JSON.stringify(body)).toEqual([400, reason]);
    }
    expect(await linkCount()).toBe(before);
  });

  it("refuses a Pay while the token's feed is stale, and creates no session", async () => {
    const link = (await newLink({ currency: "USD", amount: "20" })).body.data;
    const before = await sessionsOf(merchant.userId);
    await setTestFeed(chain().url, feeds.token, 100_000_000n, 1n);
    const res = await payReq(link.slug, "198.51.100.9");
    expect([res.status, res.body.error?.reason]).toEqual([400, "no-token-offered"]);
    expect(await sessionsOf(merchant.userId)).toBe(before);
  });
});
