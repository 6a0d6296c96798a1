/**
 * Fiat-priced sessions end to end on anvil (docs/design.md §23): the API create quotes every
 * offered token from price feeds on the chain, a payment in any offered token completes the
 * session at its quote and is forwarded once, a partial in one token takes the rest in another,
 * a de-pegged or stale feed takes its token out of the offer, and bad input changes nothing.
 */

import { and, count, eq } from "drizzle-orm";
import { type Address, type Hex, parseUnits } from "viem";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { GET as history } from "@/app/api/v1/payment/history/route";
import { currencyFeeds, deposits, forwards, paymentDayTotals, paymentSessions, sessionQuotes, webhookDeliveries } from "@/lib/db/schema";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { forgetMulticall, MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { DEMO_EUR_USD_FEED, ensureDemoFeeds } from "@/lib/engine/dev/demo-feeds";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { getCheckoutView } from "@/lib/web/checkout/checkout-view";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { deployTestFeed, setTestFeed } from "../helpers/feeds";
import { call } from "../helpers/http";
import { startWebhookReceiver } from "../helpers/webhook-receiver";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;

let merchant: Merchant;
let usdt: Address;
let usdc: Address;
let unpriced: Address;
const ids = { usdt: 0, usdc: 0, unpriced: 0 };
const feeds = { usdt: "0x" as Address, usdc: "0x" as Address };

const deployFeed = (pair: string) => deployTestFeed(chain().url, pair);
/** A feed's next round: `updatedAt` 0 reads as the block being read (always fresh). */
const setFeed = (feed: Address, answer: bigint, updatedAt = 0n) => setTestFeed(chain().url, feed, answer, updatedAt);

async function createFiat(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey, ...headers },
    body: { merchantWallet: MERCHANT_WALLET, ...body },
  });
}
async function newFiatSession(body: Record<string, unknown>) {
  const res = await createFiat(body);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data as {
    sessionId: string;
    depositAddress: Address;
    token: string;
    amount: string;
    quotes: { token: string; amount: string }[];
  };
}
const statusOf = async (sessionId: string) =>
  (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data;
const settle = () => runEngine(db(), chain().url);
async function pay(token: Address, to: Address, amount: string) {
  await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, to, parseUnits(amount, 18)) });
}
const sessionCount = async () => Number((await db().select({ n: count() }).from(paymentSessions))[0]?.n);

// CONFIRMATIONS=1: the block that holds a transfer confirms it (anvil mines one block per transaction).
const configure = (extra: Record<string, string> = {}) =>
  useConfig({
    BSC_RPC_URL: chain().url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    CONFIRMATIONS: "1",
    WEBHOOK_ALLOW_PRIVATE: "true",
    ...extra,
  });
const patchThresholds = (body: Record<string, unknown>) =>
  call(patchDomain, { method: "PATCH", headers: merchant.auth, params: { id: String(merchant.domainId) }, body });

beforeAll(async () => {
  await chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  configure();
  forgetMulticall("bsc");
  await ensureDemoFeeds(chain().url);
  // The bsc network's EUR row names mainnet's feed: point it at the chain's own.
  await db().update(currencyFeeds).set({ usdFeed: DEMO_EUR_USD_FEED, heartbeatSeconds: 3600 }).where(eq(currencyFeeds.currency, "EUR"));
  usdt = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  usdc = await deployTestToken(chain().url, { symbol: "USDC", decimals: 18 });
  unpriced = await deployTestToken(chain().url, { symbol: "XYZ", decimals: 18 });
  feeds.usdt = await deployFeed("USDT / USD");
  feeds.usdc = await deployFeed("USDC / USD");
  merchant = await setUpMerchant({ contractAddress: usdt, network: "bsc" });
  ids.usdt = merchant.tokenId;
  for (const [name, address] of [
    ["usdc", usdc],
    ["unpriced", unpriced],
  ] as const) {
    await tokensCommand(db(), ["allow", "bsc", address]);
    const res = await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: address, network: "bsc" } });
    ids[name] = res.body.data.tokenId;
  }
  await tokensCommand(db(), ["feed", "bsc", usdt, feeds.usdt, "--heartbeat", "3600", "--pegged"]);
  await tokensCommand(db(), ["feed", "bsc", usdc, feeds.usdc, "--heartbeat", "3600", "--pegged"]);
  await fundGasTank(chain().url);
});

beforeEach(async () => {
  configure();
  await setFeed(feeds.usdt, 100_000_000n);
  await setFeed(feeds.usdc, 100_000_000n);
});

describe("a fiat-priced session", () => {
  it("quotes every accepted token with a fresh feed, in the order asked, and shows the quotes in status and history", async () => {
    const created = await createFiat({ currency: "usd", amount: "25.00", tokens: [ids.usdc, ids.usdt], orderId: "F-1" });
    expect(created.status).toBe(201);
    const data = created.body.data;
    // The seed's keys first, as a token-priced create has them; the fiat ones after.
    expect(Object.keys(data)).toEqual([
      "sessionId",
      "depositAddress",
      "ephemeralAddress",
      "qrCode",
      "amount",
      "token",
      "expiresAt",
      "status",
      "checkoutUrl",
      "description",
      "orderId",
      "currency",
      "fiatAmount",
      "quotes",
    ]);
    expect(data).toMatchObject({ amount: "25", token: "USDC", currency: "USD", fiatAmount: "25.00", status: "pending" });
    expect(data.quotes).toEqual([
      expect.objectContaining({
        tokenId: ids.usdc,
        token: "USDC",
        amount: "25",
        rate: "1.00000000",
        offPeg: false,
        quoteExpiresAt: data.expiresAt,
      }),
      expect.objectContaining({ tokenId: ids.usdt, token: "USDT", amount: "25", rate: "1.00000000", source: `chainlink:${feeds.usdt}` }),
    ]);
    expect(await db().select().from(sessionQuotes).where(eq(sessionQuotes.sessionId, data.sessionId))).toHaveLength(2);

    const read = await statusOf(data.sessionId);
    expect(read).toMatchObject({ currency: "USD", fiatAmount: "25.00", paidToken: null, paidAmount: null, rate: null });
    expect(read.quotes).toEqual(data.quotes);
    const listed = await call(history, { headers: { "x-api-key": merchant.apiKey }, path: "/api/v1/payment/history?orderId=F-1" });
    expect(listed.body.data.items[0]).toMatchObject({ currency: "USD", fiatAmount: "25.00", quotes: data.quotes });
  });

  it("without tokens offers every accepted token the merchant registered that has a feed; a token without one is left out", async () => {
    const data = await newFiatSession({ currency: "USD", amount: "10" });
    expect(data.quotes.map((q) => q.token)).toEqual(["USDT", "USDC"]);
  });

  it("prices EUR through the EUR/USD feed, rounding the token amount up", async () => {
    const data = await newFiatSession({ currency: "EUR", amount: "27.00", tokens: [ids.usdt] });
    // 1 USDT = 1 / 1.08 EUR = 0.92592592 EUR (the rate, rounded down); 27 EUR / that rate, rounded up.
    expect(data.quotes[0]).toMatchObject({ token: "USDT", rate: "0.92592592" });
    expect(parseUnits(data.amount, 18)).toBeGreaterThanOrEqual(parseUnits("29.16", 18));
    expect(parseUnits(data.amount, 18)).toBeLessThan(parseUnits("29.1601", 18));
  });

  it("leaves a de-pegged stablecoin out, tells an off-peg one, and refuses when no token can pay", async () => {
    await setFeed(feeds.usdc, 96_000_000n);
    await setFeed(feeds.usdt, 99_000_000n);
    const data = await newFiatSession({ currency: "USD", amount: "25.00" });
    expect(data.quotes).toEqual([expect.objectContaining({ token: "USDT", rate: "0.99000000", offPeg: true })]);

    // Stale: its last round older than the feed's heartbeat (an hour).
    const now = BigInt(Math.floor(Date.now() / 1000));
    await setFeed(feeds.usdt, 100_000_000n, now - 7200n);
    const before = await sessionCount();
    const refused = await createFiat({ currency: "USD", amount: "25.00" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "VALIDATION_ERROR", reason: "no-token-offered" });
    expect(refused.body.error.details).toEqual(
      expect.arrayContaining([
        { path: "tokens", message: "USDT: feed-stale" },
        { path: "tokens", message: "USDC: depegged" },
      ]),
    );
    expect(await sessionCount()).toBe(before);
  });

  it.each([
    [{ currency: "USD", amount: "25", tokenId: 1 }, "token-and-currency"],
    [{ currency: "XYZ", amount: "25" }, "currency-unsupported"],
    [{ currency: "US", amount: "25" }, "invalid-request"],
    [{ currency: "USD", amount: "25.001" }, "amount-too-precise"],
    [{ currency: "USD", amount: "1e3" }, "invalid-request"],
    [{ currency: "USD", amount: "25", tokens: [999_999] }, "token-unknown"],
    [{ currency: "USD", amount: "25", tokens: [] }, "invalid-request"],
    [{ currency: "USD", amount: "25", tokens: "1" }, "invalid-request"],
  ])("refuses %j (%s) and writes nothing", async (body, reason) => {
    const before = await sessionCount();
    const res = await createFiat(body);
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toBe(reason);
    expect(await sessionCount()).toBe(before);
  });

  it("replays an Idempotency-Key's first answer even after its feed went stale", async () => {
    const headers = { "idempotency-key": `fiat-${Date.now()}` };
    const first = await createFiat({ currency: "USD", amount: "12.00", tokens: [ids.usdt] }, headers);
    expect(first.status).toBe(201);
    await setFeed(feeds.usdt, 100_000_000n, BigInt(Math.floor(Date.now() / 1000)) - 7200n);
    const again = await createFiat({ currency: "USD", amount: "12.00", tokens: [ids.usdt] }, headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await createFiat({ currency: "USD", amount: "13.00", tokens: [ids.usdt] }, headers)).status).toBe(409);
  });
});

describe("paying a fiat-priced session", () => {
  it("completes once in the token the payer chose to send, and forwards it once", async () => {
    const session = await newFiatSession({ currency: "USD", amount: "25.00", orderId: "F-pay" });
    expect(session.token).toBe("USDT");
    const before = await tokenBalance(chain().url, usdc, MERCHANT_WALLET);
    await pay(usdc, session.depositAddress, "25");
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({
      status: "completed",
      token: "USDC",
      amount: "25",
      receivedAmount: "25",
      paidToken: "USDC",
      paidAmount: "25",
      rate: "1.00000000",
      rateSource: `chainlink:${feeds.usdc}`,
      late: false,
    });
    const usdcQuote = (await statusOf(session.sessionId)).quotes.find((q: { token: string }) => q.token === "USDC");
    expect((await statusOf(session.sessionId)).ratedAt).toBe(usdcQuote.quotedAt);
    await settle();
    expect(await tokenBalance(chain().url, usdc, MERCHANT_WALLET)).toBe(before + parseUnits("25", 18));
    const [deposit] = await db().select().from(deposits).where(eq(deposits.sessionId, session.sessionId));
    expect(await db().select().from(forwards).where(eq(forwards.depositId, deposit!.id))).toEqual([
      expect.objectContaining({ status: "completed" }),
    ]);
    // The day totals keep it apart from token-priced payments of the same token.
    const [day] = await db()
      .select()
      .from(paymentDayTotals)
      .where(
        and(eq(paymentDayTotals.userId, merchant.userId), eq(paymentDayTotals.status, "completed"), eq(paymentDayTotals.tokenId, ids.usdc)),
      );
    expect(day).toMatchObject({ fiatCurrency: "USD", sessions: 1, received: parseUnits("25", 18) });
  });

  it("takes a partial in one token and the rest in another, each at its quote, forwarding each", async () => {
    await setFeed(feeds.usdc, 99_000_000n); // 1 USDC = 0.99 USD: 20.00 USD is 20.20202021 USDC
    const session = await newFiatSession({ currency: "USD", amount: "20.00" });
    expect(session.quotes).toEqual([
      expect.objectContaining({ token: "USDT", amount: "20" }),
      expect.objectContaining({ token: "USDC", amount: "20.202020202020202021", offPeg: true }),
    ]);
    await pay(usdc, session.depositAddress, "10.101010101010101011"); // half of USDC's quote
    await settle();
    const partial = await statusOf(session.sessionId);
    // Settled in USDC, the token paid first: the rest is asked in it.
    expect(partial).toMatchObject({
      status: "pending",
      token: "USDC",
      amount: "20.202020202020202021",
      receivedAmount: "10.101010101010101011",
    });

    await pay(usdt, session.depositAddress, "10"); // the other half, in USDT at its quote
    await settle();
    const done = await statusOf(session.sessionId);
    expect(done).toMatchObject({ status: "completed", paidToken: "USDC", rate: "0.99000000", late: false });
    await settle();
    const rows = await db()
      .select()
      .from(forwards)
      .innerJoin(deposits, eq(deposits.id, forwards.depositId))
      .where(eq(deposits.sessionId, session.sessionId));
    expect(rows.map((r) => r.forwards.status)).toEqual(["completed", "completed"]);
    expect(new Set(rows.map((r) => r.forwards.tokenContract.toLowerCase()))).toEqual(new Set([usdt.toLowerCase(), usdc.toLowerCase()]));
  });

  it("with FIAT_UNDERPAY_BPS=50 counts a payment short by less than 0.5 % as paid, not one short by more", async () => {
    configure({ FIAT_UNDERPAY_BPS: "50" });
    const short = await newFiatSession({ currency: "USD", amount: "100.00", tokens: [ids.usdt] });
    await pay(usdt, short.depositAddress, "99.6");
    const tooShort = await newFiatSession({ currency: "USD", amount: "100.00", tokens: [ids.usdt] });
    await pay(usdt, tooShort.depositAddress, "99.4");
    await settle();
    expect(await statusOf(short.sessionId)).toMatchObject({ status: "completed", paidAmount: "99.6" });
    expect(await statusOf(tooShort.sessionId)).toMatchObject({ status: "pending", receivedAmount: "99.4" });
  });

  it("by default takes the whole price: 0.1 % short stays partial, one base unit short completes (the quote's rounding)", async () => {
    const partial = await newFiatSession({ currency: "USD", amount: "100.00", tokens: [ids.usdt] });
    await pay(usdt, partial.depositAddress, "99.9");
    const rounded = await newFiatSession({ currency: "USD", amount: "100.00", tokens: [ids.usdt] });
    await chain().client.waitForTransactionReceipt({
      hash: await payTo(chain().url, usdt, rounded.depositAddress, parseUnits("100", 18) - 1n),
    });
    const twoShort = await newFiatSession({ currency: "USD", amount: "100.00", tokens: [ids.usdt] });
    await chain().client.waitForTransactionReceipt({
      hash: await payTo(chain().url, usdt, twoShort.depositAddress, parseUnits("100", 18) - 2n),
    });
    await settle();
    expect(await statusOf(partial.sessionId)).toMatchObject({ status: "pending", receivedAmount: "99.9" });
    expect(await statusOf(rounded.sessionId)).toMatchObject({ status: "completed", paidAmount: "99.999999999999999999" });
    expect(await statusOf(twoShort.sessionId)).toMatchObject({ status: "pending" });
    expect((await getCheckoutView(db(), partial.sessionId)).fiat).toMatchObject({ underpayBps: 0 });
  });

  it("takes its domain's tolerance: 50 bps completes a payment 0.4 % short, and the checkout states the terms", async () => {
    expect((await patchThresholds({ fiatUnderpayBps: 50 })).body.data).toMatchObject({ fiatUnderpayBps: 50, fiatUnderpayBpsInForce: 50 });
    try {
      const session = await newFiatSession({ currency: "USD", amount: "100.00", tokens: [ids.usdt], domainId: merchant.domainId });
      expect((await getCheckoutView(db(), session.sessionId)).fiat).toMatchObject({ underpayBps: 50 });
      await pay(usdt, session.depositAddress, "99.6");
      await settle();
      expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", paidAmount: "99.6" });
    } finally {
      await patchThresholds({ fiatUnderpayBps: null });
    }
    // Back to the gateway's 0: the page says nothing, and 0.4 % short is partial.
    const strict = await newFiatSession({ currency: "USD", amount: "100.00", tokens: [ids.usdt], domainId: merchant.domainId });
    expect((await getCheckoutView(db(), strict.sessionId)).fiat).toMatchObject({ underpayBps: 0 });
    await pay(usdt, strict.depositAddress, "99.6");
    await settle();
    expect(await statusOf(strict.sessionId)).toMatchObject({ status: "pending", receivedAmount: "99.6" });
  });

  it("does not count a token it did not offer: late, and forwarded", async () => {
    const session = await newFiatSession({ currency: "USD", amount: "5.00", tokens: [ids.usdt] });
    await pay(unpriced, session.depositAddress, "5");
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "pending", late: true, receivedAmount: null });
    expect(await tokenBalance(chain().url, unpriced, session.depositAddress)).toBeLessThanOrEqual(parseUnits("5", 18));
  });

  it("tells the shop's webhook the price, its quotes and what paid it", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const saved = await call(patchDomain, {
        method: "PATCH",
        headers: merchant.auth,
        params: { id: String(merchant.domainId) },
        body: { webhookUrl: receiver.url },
      });
      expect(saved.status).toBe(200);
      const session = await newFiatSession({ currency: "USD", amount: "7.00", tokens: [ids.usdt] });
      await pay(usdt, session.depositAddress, "7");
      await settle();
      const events = (await db().select().from(webhookDeliveries))
        .map((row) => ({ type: row.eventType, body: JSON.parse(row.payload) as { data: Record<string, unknown> } }))
        .filter((event) => event.body.data.sessionId === session.sessionId);
      expect(events.map((event) => event.type)).toEqual(["payment.completed"]);
      expect(events[0]?.body.data).toMatchObject({
        currency: "USD",
        fiatAmount: "7.00",
        quotes: [expect.objectContaining({ token: "USDT", amount: "7" })],
        paidToken: "USDT",
        paidAmount: "7",
        rate: "1.00000000",
      });
    } finally {
      await receiver.close();
    }
  });
});
