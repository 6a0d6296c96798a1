/**
 * Late and partial rules in fiat on anvil (docs/design.md §23): a transfer in the
 * quote's window counts at the quote whatever the feed did since; one after it is re-priced at its
 * block's rate — counted when within the domain's tolerance and covering the price, else late as
 * before (also when the feed was stale at that block); the under-payment threshold is the domain's;
 * a bad threshold is refused and changes nothing.
 */

import { eq } from "drizzle-orm";
import { type Address, type Hex, parseUnits } from "viem";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { deposits, domains, forwards, paymentSessions, webhookDeliveries } from "@/lib/db/schema";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { forgetMulticall, MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { ensureDemoFeeds } from "@/lib/engine/dev/demo-feeds";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { expireDueStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { deployTestFeed, setTestFeed } from "../helpers/feeds";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;

let merchant: Merchant;
let usdt: Address;
let feed: Address;

/** The feed's next round: `updatedAt` 0 reads as the block being read (always fresh). */
const setFeed = (answer: bigint, updatedAt = 0n) => setTestFeed(chain().url, feed, answer, updatedAt);
async function newSession(amount: string) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { merchantWallet: MERCHANT_WALLET, currency: "USD", amount, tokens: [merchant.tokenId] },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data as { sessionId: string; depositAddress: Address; amount: string; quotes: { rate: string }[] };
}
const statusOf = async (sessionId: string) =>
  (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data;
const settle = () => runEngine(db(), chain().url);
async function pay(to: Address, amount: string) {
  await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usdt, to, parseUnits(amount, 18)) });
}
/** Ends the session's window before both clocks (the chain's decides lateness, this one's the expiry), then expires it. */
async function expire(sessionId: string) {
  const chainNow = Number((await chain().client.getBlock()).timestamp) * 1000;
  await db()
    .update(paymentSessions)
    .set({ expiresAt: new Date(Math.min(Date.now(), chainNow) - 1000) })
    .where(eq(paymentSessions.id, sessionId));
  await expireDueStep(db());
  expect((await statusOf(sessionId)).status).toBe("expired");
}
const depositsOf = (sessionId: string) => db().select().from(deposits).where(eq(deposits.sessionId, sessionId));
async function forwardsOf(sessionId: string) {
  const rows = await db()
    .select()
    .from(forwards)
    .innerJoin(deposits, eq(deposits.id, forwards.depositId))
    .where(eq(deposits.sessionId, sessionId));
  return rows.map((r) => r.forwards.status);
}
async function eventsOf(sessionId: string) {
  return (await db().select().from(webhookDeliveries))
    .map((row) => ({ type: row.eventType, data: (JSON.parse(row.payload) as { data: Record<string, unknown> }).data }))
    .filter((event) => event.data.sessionId === sessionId)
    .map((event) => event.type);
}
const patch = (body: Record<string, unknown>) =>
  call(patchDomain, { method: "PATCH", headers: merchant.auth, params: { id: String(merchant.domainId) }, body });

beforeAll(async () => {
  await chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  // The gateway accepts 0.5 % short here (its default is 0): the tolerance is what these tests are about.
  useConfig({
    BSC_RPC_URL: chain().url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    CONFIRMATIONS: "1",
    WEBHOOK_ALLOW_PRIVATE: "true",
    FIAT_UNDERPAY_BPS: "50",
  });
  forgetMulticall("bsc");
  await ensureDemoFeeds(chain().url);
  usdt = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  feed = await deployTestFeed(chain().url, "USDT / USD");
  merchant = await setUpMerchant({ contractAddress: usdt, network: "bsc" });
  await tokensCommand(db(), ["feed", "bsc", usdt, feed, "--heartbeat", "3600", "--pegged"]);
  await fundGasTank(chain().url);
  // Webhook events are written for a domain with a URL (nothing needs to listen: the rows are what is checked).
  expect((await patch({ webhookUrl: "http://127.0.0.1:9/hooks" })).status).toBe(200);
});

beforeEach(async () => setFeed(100_000_000n));
afterEach(async () => {
  await db().update(domains).set({ fiatUnderpayBps: null, fiatRateToleranceBps: null }).where(eq(domains.id, merchant.domainId));
});

describe("a fiat session's transfer against its quote's window", () => {
  it("in the window counts at the locked quote, whatever the feed did since", async () => {
    const session = await newSession("25.00");
    await setFeed(97_500_000n); // 2.5 % off: a quote now would differ
    await pay(session.depositAddress, "25");
    await settle();
    const read = await statusOf(session.sessionId);
    expect(read).toMatchObject({ status: "completed", paidAmount: "25", rate: "1.00000000", late: false });
    // The rate says where it came from and when: the quote's own source and time.
    expect(read.rateSource).toBe(`chainlink:${feed}`);
    expect(read.rateSource).toBe(read.quotes[0].source);
    expect(read.ratedAt).toBe(read.quotes[0].quotedAt);
    const [deposit] = await depositsOf(session.sessionId);
    expect(deposit).toMatchObject({ late: false, reprice: null });
  });

  it("after it, at its block's rate within the tolerance: completes with it, forwarded once, one payment.completed", async () => {
    const session = await newSession("25.00");
    await expire(session.sessionId);
    await setFeed(99_200_000n); // 0.8 % off the quote's 1.00: within ±1 %
    await pay(session.depositAddress, "25.2"); // 25.2 × 0.992 = 24.9984 USD: short by 0.0064 %, under 0.5 %
    await settle();
    const read = await statusOf(session.sessionId);
    expect(read).toMatchObject({ status: "completed", paidToken: "USDT", rate: "0.99200000", receivedAmount: "24.9984", late: false });
    const [deposit] = await depositsOf(session.sessionId);
    expect(deposit).toMatchObject({ reprice: "counted", repriceRate: "0.99200000", late: false });
    expect(deposit?.repriceSource).toBe(`chain:block ${deposit?.blockNumber}`);
    expect(deposit?.repricedAt).toBeInstanceOf(Date);
    // The session's rate is the block's, and says so.
    expect(read.rateSource).toBe(`chain:block ${deposit?.blockNumber}`);
    expect(read.ratedAt).toBe(deposit?.blockTimestamp.toISOString());
    await settle();
    expect(await forwardsOf(session.sessionId)).toEqual(["completed"]);
    const events = await eventsOf(session.sessionId);
    expect(events.filter((type) => type === "payment.completed")).toHaveLength(1);
    expect(events).toEqual(["payment.expired", "payment.late", "payment.completed"]);
    // Settling again changes nothing.
    await settle();
    expect(await eventsOf(session.sessionId)).toEqual(events);
  });

  it("after it, at a rate beyond the tolerance: late, as before, even though it covers the price", async () => {
    const session = await newSession("25.00");
    await expire(session.sessionId);
    await setFeed(98_500_000n); // 1.5 % off the quote
    await pay(session.depositAddress, "26"); // 25.61 USD at that rate: enough, but the rate moved too far
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "expired", late: true, receivedAmount: null });
    const [deposit] = await depositsOf(session.sessionId);
    expect(deposit).toMatchObject({ reprice: "late", late: true, repriceRate: null });
    expect(await forwardsOf(session.sessionId)).toEqual(["completed"]);
    expect(await eventsOf(session.sessionId)).toEqual(["payment.expired", "payment.late"]);
  });

  it("a domain's own tolerance lets the same 1.5 % move count", async () => {
    expect((await patch({ fiatRateToleranceBps: 200 })).body.data).toMatchObject({
      fiatRateToleranceBps: 200,
      fiatRateToleranceBpsInForce: 200,
    });
    const session = await newSession("25.00");
    await expire(session.sessionId);
    await setFeed(98_500_000n);
    await pay(session.depositAddress, "26");
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", rate: "0.98500000" });
  });

  it("after it, with the feed stale at its block: late, never a guessed rate", async () => {
    const session = await newSession("25.00");
    await expire(session.sessionId);
    await setFeed(100_000_000n, BigInt(Math.floor(Date.now() / 1000)) - 7200n); // older than the hour's heartbeat
    await pay(session.depositAddress, "25");
    await setFeed(100_000_000n); // fresh again later: the block's reading decides
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "expired", late: true });
    const [deposit] = await depositsOf(session.sessionId);
    expect(deposit).toMatchObject({ reprice: "late", repriceRate: null });
  });

  it("never queues dust for re-pricing (no feed read for it)", async () => {
    const session = await newSession("25.00");
    await expire(session.sessionId);
    await pay(session.depositAddress, "0.01");
    await settle();
    const [deposit] = await depositsOf(session.sessionId);
    expect(deposit).toMatchObject({ reprice: null, late: true });
  });
});

describe("a domain's under-payment threshold", () => {
  it("at 0 bps refuses a payment 0.3 % short that the gateway's FIAT_UNDERPAY_BPS (0.5 %) accepts", async () => {
    const saved = await patch({ fiatUnderpayBps: 0 });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ fiatUnderpayBps: 0, fiatUnderpayBpsInForce: 0, fiatRateToleranceBps: null });
    const strict = await newSession("100.00");
    await pay(strict.depositAddress, "99.7");
    await settle();
    expect(await statusOf(strict.sessionId)).toMatchObject({ status: "pending", receivedAmount: "99.7" });

    const reset = await patch({ fiatUnderpayBps: null });
    expect(reset.body.data).toMatchObject({ fiatUnderpayBps: null, fiatUnderpayBpsInForce: 50 });
    const lenient = await newSession("100.00");
    await pay(lenient.depositAddress, "99.7");
    await settle();
    expect(await statusOf(lenient.sessionId)).toMatchObject({ status: "completed", paidAmount: "99.7" });
  });

  it.each([
    [{ fiatUnderpayBps: 1001 }, "fiatUnderpayBps"],
    [{ fiatUnderpayBps: -1 }, "fiatUnderpayBps"],
    [{ fiatUnderpayBps: 2.5 }, "fiatUnderpayBps"],
    [{ fiatUnderpayBps: "50" }, "fiatUnderpayBps"],
    [{ fiatRateToleranceBps: true }, "fiatRateToleranceBps"],
    [{ fiatRateToleranceBps: 5000 }, "fiatRateToleranceBps"],
    [{ fiatRateToleranceBps: 150, fiatUnderpayBps: 1e9, webhookUrl: "https://elsewhere.example/hooks" }, "fiatUnderpayBps"],
  ])("refuses %j and changes nothing", async (body, path) => {
    await patch({ fiatUnderpayBps: 20 });
    const [before] = await db().select().from(domains).where(eq(domains.id, merchant.domainId));
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    const [after] = await db().select().from(domains).where(eq(domains.id, merchant.domainId));
    expect(after).toEqual(before);
    expect(after).toMatchObject({ fiatUnderpayBps: 20, fiatRateToleranceBps: null, webhookUrl: "http://127.0.0.1:9/hooks" });
  });
});
