/**
 * Refunds of fiat-priced payments know the rate: `basis: "tokens"` gives back
 * tokens as before, `basis: "fiat"` a fiat amount at today's rate of the token that paid, read from
 * its price feed on the chain now; the choice and the rate are recorded and shown. A stale or
 * de-pegged feed, a fiat amount beyond what the payment received, and bad input are refused with
 * nothing recorded; a token-priced payment's refunds are exactly as before.
 */

import { eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { GET as getRefund } from "@/app/api/v1/refund/[refundId]/route";
import { refunds, webhookDeliveries } from "@/lib/db/schema";
import { refundClaimPage } from "@/lib/domain/refunds/claim-refund";
import { CLAIM_SECRET_PARAM } from "@/lib/domain/refunds/claim-secret";
import { previewRefund } from "@/lib/domain/refunds/dashboard-refunds";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { forgetMulticall, MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { ensureDemoFeeds } from "@/lib/engine/dev/demo-feeds";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { payTo, runEngine } from "../helpers/engine";
import { deployTestFeed, setTestFeed } from "../helpers/feeds";
import { call } from "../helpers/http";
import { apiKey, countRows, MERCHANT_WALLET, paidSession, refundReq, units, useRefundShop } from "../helpers/refunds";

const shop = useRefundShop();
const db = () => shop.db();
let feed: Address;

/** The token's USD price, 8 decimals; `updatedAt` 0 reads as the block being read (always fresh). */
const setPrice = (answer: bigint, updatedAt = 0n) => setTestFeed(shop.chain().url, feed, answer, updatedAt);
const stale = () => setPrice(200_000_000n, BigInt(Math.floor(Date.now() / 1000)) - 7200n);

/** A fiat-priced session of `usd` USD paid in full with the shop's token at the price set now. */
async function paidFiatSession(usd: string): Promise<{ sessionId: string; paid: string }> {
  const created = await call(create, {
    method: "POST",
    headers: apiKey(shop),
    body: { currency: "USD", amount: usd, tokens: [shop.merchant().tokenId], merchantWallet: MERCHANT_WALLET },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { sessionId, depositAddress, amount } = created.body.data;
  const hash = await payTo(shop.chain().url, shop.token(), depositAddress, units(amount));
  await shop.chain().client.waitForTransactionReceipt({ hash });
  await runEngine(db(), shop.chain().url);
  return { sessionId, paid: amount };
}
const rowsOf = (sessionId: string) => db().select().from(refunds).where(eq(refunds.sessionId, sessionId));

const SEED_KEYS = [
  "refundId",
  "sessionId",
  "status",
  "amount",
  "token",
  "network",
  "toAddress",
  "addressFrom",
  "claimUrl",
  "claimLinkIssued",
  "claimExpiresAt",
  "withdrawalId",
  "txHash",
  "reason",
  "createdAt",
  "completedAt",
];

beforeAll(async () => {
  await shop.chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  forgetMulticall("bsc");
  await ensureDemoFeeds(shop.chain().url);
  feed = await deployTestFeed(shop.chain().url, "RFD / USD", 200_000_000n);
  // Not a stablecoin: priced at its feed, whatever it says.
  await tokensCommand(db(), ["feed", "bsc", shop.token(), feed, "--heartbeat", "3600"]);
});

beforeEach(async () => {
  await setPrice(200_000_000n); // 1 RFD = 2.00 USD
});

describe("a refund of a fiat-priced payment", () => {
  it('gives back tokens by default, recorded and shown as basis "tokens"', async () => {
    const { sessionId, paid } = await paidFiatSession("10.00");
    expect(paid).toBe("5");
    const res = await refundReq(shop, sessionId, { amount: "1.5" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body.data)).toEqual([...SEED_KEYS, "basis"]);
    expect(res.body.data).toMatchObject({ amount: "1.5", basis: "tokens" });
    expect(await rowsOf(sessionId)).toEqual([
      expect.objectContaining({ amount: units("1.5"), basis: "tokens", currency: null, fiatAmount: null, rate: null }),
    ]);
    const explicit = await refundReq(shop, sessionId, { amount: "1", basis: "tokens" });
    expect(explicit.body.data).toMatchObject({ amount: "1", basis: "tokens" });
  });

  it('gives back a fiat amount at today\'s rate with basis "fiat": a rate moved since the payment gives other tokens', async () => {
    const { sessionId } = await paidFiatSession("10.00"); // 5 RFD at 2.00
    await setPrice(250_000_000n); // now 2.50 USD
    const res = await refundReq(shop, sessionId, { basis: "fiat", fiatAmount: "4.00" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const data = res.body.data;
    expect(Object.keys(data)).toEqual([...SEED_KEYS, "basis", "currency", "fiatAmount", "rate", "rateSource", "ratedAt"]);
    expect(data).toMatchObject({
      amount: "1.6",
      basis: "fiat",
      currency: "USD",
      fiatAmount: "4.00",
      rate: "2.50000000",
      rateSource: `chainlink:${feed}`,
    });
    expect(Date.now() - Date.parse(data.ratedAt)).toBeLessThan(60_000);
    const [row] = await rowsOf(sessionId);
    expect(row).toMatchObject({ amount: units("1.6"), basis: "fiat", currency: "USD", fiatAmount: 400n, rate: "2.50000000" });
    // The refund as the API reads it (without its claim link: that was in this answer only), and as its webhook told the shop.
    const read = await call(getRefund, { headers: apiKey(shop), params: { refundId: data.refundId } });
    expect(read.body.data).toEqual({ ...data, claimUrl: null });
    // The payer's claim page: the fiat amount is its headline, the tokens and the rate beside it.
    const claim = await refundClaimPage(db(), data.refundId, new URL(data.claimUrl).searchParams.get(CLAIM_SECRET_PARAM));
    expect(claim).toMatchObject({ amount: "1.6", currency: "USD", fiatAmount: "4.00", rate: "2.50000000" });
    const events = (await db().select({ payload: webhookDeliveries.payload }).from(webhookDeliveries))
      .map((d) => JSON.parse(d.payload) as { type: string; data: Record<string, unknown> })
      .filter((e) => e.data.refundId === data.refundId);
    expect(events).toEqual([
      expect.objectContaining({
        type: "refund.created",
        data: expect.objectContaining({ basis: "fiat", fiatAmount: "4.00", rate: "2.50000000" }),
      }),
    ]);
  });

  it("defaults to the whole fiat price, rounds the tokens up (in the payer's favour)", async () => {
    const { sessionId } = await paidFiatSession("10.00");
    await setPrice(300_000_000n); // 3.00 USD: 10.00 USD is 3.333… RFD
    const res = await refundReq(shop, sessionId, { basis: "fiat" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ amount: "3.333333333333333334", fiatAmount: "10.00", rate: "3.00000000" });
  });

  it("refuses a fiat amount that needs more tokens than the payment can still refund, and records nothing", async () => {
    const { sessionId } = await paidFiatSession("10.00"); // 5 RFD
    await setPrice(100_000_000n); // 1.00 USD: 10.00 USD would be 10 RFD
    const before = await countRows(db());
    const res = await refundReq(shop, sessionId, { basis: "fiat" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", reason: "refund-exceeds-refundable" });
    expect(res.body.error.details).toEqual([{ path: "fiatAmount", message: "at most 5.00 USD at today's rate" }]);
    expect(await countRows(db())).toEqual(before);
    // What is left still goes back in fiat.
    expect((await refundReq(shop, sessionId, { basis: "fiat", fiatAmount: "5" })).body.data).toMatchObject({
      amount: "5",
      fiatAmount: "5.00",
    });
  });

  it("refuses while the token's feed is stale or the stablecoin is off its peg by more than 3 %, and records nothing", async () => {
    const { sessionId } = await paidFiatSession("10.00");
    const before = await countRows(db());
    await stale();
    const refused = await refundReq(shop, sessionId, { basis: "fiat", fiatAmount: "1.00" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ reason: "refund-rate-unavailable", details: [{ path: "basis", message: "feed-stale" }] });
    await expect(previewRefund(db(), shop.merchant().userId, sessionId, "1.00")).rejects.toMatchObject({
      reason: "refund-rate-unavailable",
    });

    await tokensCommand(db(), ["feed", "bsc", shop.token(), feed, "--heartbeat", "3600", "--pegged"]);
    try {
      await setPrice(96_000_000n);
      const depegged = await refundReq(shop, sessionId, { basis: "fiat", fiatAmount: "1.00" });
      expect(depegged.body.error).toMatchObject({ reason: "refund-rate-unavailable", details: [{ path: "basis", message: "depegged" }] });
    } finally {
      await tokensCommand(db(), ["feed", "bsc", shop.token(), feed, "--heartbeat", "3600"]);
    }
    expect(await countRows(db())).toEqual(before);
    // Tokens still go back.
    await stale();
    expect((await refundReq(shop, sessionId, { amount: "1" })).status).toBe(201);
  });

  it("replays an Idempotency-Key's first answer even once the feed went stale", async () => {
    const { sessionId } = await paidFiatSession("10.00");
    const headers = { "idempotency-key": `fiat-refund-${sessionId}` };
    const first = await refundReq(shop, sessionId, { basis: "fiat", fiatAmount: "2.00" }, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    await stale();
    const again = await refundReq(shop, sessionId, { basis: "fiat", fiatAmount: "2.00" }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.refundId).toBe(first.body.data.refundId);
    expect((await refundReq(shop, sessionId, { basis: "fiat", fiatAmount: "3.00" }, headers)).status).toBe(409);
    expect(await rowsOf(sessionId)).toHaveLength(1);
  });

  it("previews the tokens a fiat amount is now, for the dashboard's dialog", async () => {
    const { sessionId } = await paidFiatSession("10.00");
    await setPrice(250_000_000n);
    expect(await previewRefund(db(), shop.merchant().userId, sessionId, "4")).toMatchObject({
      amount: "1.6",
      token: "RFD",
      currency: "USD",
      fiatAmount: "4.00",
      rate: "2.50000000",
      atMost: "12.50",
    });
  });

  it.each([
    [{ basis: "fiat", amount: "1" }, "refund-amount-with-fiat-basis"],
    [{ fiatAmount: "1.00" }, "refund-fiat-amount-needs-fiat-basis"],
    [{ basis: "tokens", fiatAmount: "1.00" }, "refund-fiat-amount-needs-fiat-basis"],
    [{ basis: "fiat", fiatAmount: "1.001" }, "amount-too-precise"],
    [{ basis: "fiat", fiatAmount: "0" }, "amount-zero"],
    [{ basis: "fiat", fiatAmount: 1 }, "invalid-request"],
    [{ basis: "eur" }, "invalid-request"],
  ])("refuses %j (%s) and records nothing", async (body, reason) => {
    const { sessionId } = await paidFiatSession("2.00");
    const before = await countRows(db());
    const res = await refundReq(shop, sessionId, body);
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toBe(reason);
    expect(await countRows(db())).toEqual(before);
  });
});

describe("a refund of a token-priced payment", () => {
  it.each([
    [{ basis: "tokens", amount: "1" }, "basis"],
    [{ basis: "fiat", fiatAmount: "1.00" }, "basis"],
    [{ fiatAmount: "1.00" }, "fiatAmount"],
  ])("refuses %j and records nothing", async (body, path) => {
    const { sessionId } = await paidSession(shop, "3", "3");
    const before = await countRows(db());
    const res = await refundReq(shop, sessionId, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      reason: "refund-basis-token-priced",
      details: [{ path, message: "only for a fiat-priced payment" }],
    });
    expect(await countRows(db())).toEqual(before);
  });

  it("answers exactly as before: no basis key, none recorded", async () => {
    const { sessionId } = await paidSession(shop, "3", "3");
    const res = await refundReq(shop, sessionId, { amount: "1" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data)).toEqual(SEED_KEYS);
    expect(await rowsOf(sessionId)).toEqual([expect.objectContaining({ basis: null, currency: null, rate: null })]);
  });
});
