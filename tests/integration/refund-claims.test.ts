/**
 * A payer's claim the merchant's side cannot send (a wallet short of tokens is not one
 * of them: the refund waits for the funds): the payer is
 * told "not now" in their language, never the merchant's internals; the reason goes to the
 * merchant (the refund's reason) and the log; nothing is recorded and the refund still waits.
 * Beyond the plan's daily withdrawals or gas budget a refund answers 429 with Retry-After.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DELETE as removeDomain } from "@/app/api/user/domains/[id]/route";
import { POST as addDomain } from "@/app/api/user/domains/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { GET as getRefund } from "@/app/api/v1/refund/[refundId]/route";
import { claimProblemOf } from "@/lib/domain/refunds/claim-problems";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { plansCommand } from "@/lib/ops/admin/plans";
import { LOCALES } from "@/lib/web/i18n/locale";
import { claimProblemMessage, PAYER_PAGE_MESSAGES } from "@/lib/web/i18n/refund-messages";
import { TEST_MNEMONIC } from "../helpers/config";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { type CallResult, call } from "../helpers/http";
import {
  apiKey,
  claimPageReq,
  claimReq,
  countRows,
  MERCHANT_WALLET,
  PAYER_NEW_ADDRESS,
  paidSession,
  refundReq,
  units,
  useRefundShop,
} from "../helpers/refunds";

const shop = useRefundShop();
const db = () => shop.db();
let domains = 0;

/** A paid session on a new domain of the shop: its withdrawal wallet holds nothing. */
async function paidOnNewDomain(): Promise<{ sessionId: string; domainId: number }> {
  const added = await call(addDomain, {
    method: "POST",
    headers: shop.merchant().auth,
    body: { domain: `https://d${++domains}.example.com` },
  });
  const domainId = added.body.data.domainId as number;
  const created = await call(create, {
    method: "POST",
    headers: apiKey(shop),
    body: { tokenId: shop.merchant().tokenId, amount: "2", domainId, merchantWallet: MERCHANT_WALLET },
  });
  const { sessionId, depositAddress } = created.body.data;
  await shop.chain().client.waitForTransactionReceipt({ hash: await payTo(shop.chain().url, shop.token(), depositAddress, units("2")) });
  await runEngine(db(), shop.chain().url);
  return { sessionId, domainId };
}

const refundOf = async (refundId: string) => (await call(getRefund, { headers: apiKey(shop), params: { refundId } })).body.data;

/** The claim page shows the problem of `res` as this sentence in every language. */
function expectShownAs(res: CallResult, key: "claimUnavailable" | "serviceAddress" | "zeroAddress") {
  for (const locale of LOCALES) {
    const t = PAYER_PAGE_MESSAGES[locale];
    expect(claimProblemMessage(claimProblemOf(res.body.error), t), locale).toBe(t[key]);
  }
}

/** Not one of the merchant's internals reaches the payer. */
function expectNoInternals(res: CallResult) {
  expect(res.body.error.message).toBe("this refund cannot be sent right now and nothing was sent: try again later, or contact the shop");
  expect(JSON.stringify(res.body)).not.toMatch(/base units|withdrawal wallet|RPC|package|\bplan\b|gas|domain/i);
}

afterEach(async () => {
  await plansCommand(db(), ["set", "starter", "--daily-withdrawals", "100", "--gas-budget", "unlimited"]);
});

describe("a claim the merchant's side cannot send", () => {
  it("tells the payer to try later in their language, tells the merchant why, and changes nothing else", async () => {
    const { sessionId, domainId } = await paidOnNewDomain();
    const created = await refundReq(shop, sessionId, { amount: "2" });
    expect(created.status).toBe(201);
    const refundId = created.body.data.refundId as string;
    const link = created.body.data.claimUrl as string;
    // The wallet holds the tokens (a wallet short of tokens makes the refund wait: refund-awaiting-funds.test.ts)
    // but neither it nor the gas tank has BNB for the gas.
    const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(domainId);
    await shop.chain().client.waitForTransactionReceipt({ hash: await payTo(shop.chain().url, shop.token(), wallet, units("2")) });
    await shop.chain().client.setBalance({ address: keyRingFor(TEST_MNEMONIC).gasTankAddress(), value: 0n });
    const before = await countRows(db());

    const res = await claimReq(link, PAYER_NEW_ADDRESS);
    await fundGasTank(shop.chain().url);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("BLOCKCHAIN_ERROR");
    expectNoInternals(res);
    expectShownAs(res, "claimUnavailable");

    expect(await countRows(db())).toEqual(before);
    const merchantView = await refundOf(refundId);
    expect(merchantView).toMatchObject({ status: "awaiting_address", toAddress: null });
    expect(merchantView.reason).toMatch(/^the payer's last claim could not be sent: .*(BNB|gas)/);
    const payerView = (await claimPageReq(link)).body.data;
    expect(payerView).toMatchObject({ status: "awaiting_address", reason: null });
  });

  it("says so too when the payment's domain was removed after the refund was created", async () => {
    const { sessionId, domainId } = await paidOnNewDomain();
    const { refundId, claimUrl: link } = (await refundReq(shop, sessionId, { amount: "2" })).body.data;
    expect((await call(removeDomain, { method: "DELETE", headers: shop.merchant().auth, params: { id: String(domainId) } })).status).toBe(
      200,
    );
    const before = await countRows(db());
    const res = await claimReq(link, PAYER_NEW_ADDRESS);
    expect(res.status).toBe(502);
    expectNoInternals(res);
    expectShownAs(res, "claimUnavailable");
    expect(await countRows(db())).toEqual(before);
    expect(await refundOf(refundId)).toMatchObject({ status: "awaiting_address", reason: expect.stringContaining("domain") });
  });

  it("keeps the payer's own mistakes specific: a gateway address, the zero address", async () => {
    const { sessionId, depositAddress } = await paidSession(shop, "1", "1");
    const { refundId, claimUrl: link } = (await refundReq(shop, sessionId, { amount: "1" })).body.data;
    const before = await countRows(db());
    const service = await claimReq(link, depositAddress);
    expect(service.status).toBe(400);
    expectShownAs(service, "serviceAddress");
    const zero = await claimReq(link, "0x0000000000000000000000000000000000000000");
    expect(zero.status).toBe(400);
    expectShownAs(zero, "zeroAddress");
    expect(await countRows(db())).toEqual(before);
    expect(await refundOf(refundId)).toMatchObject({ status: "awaiting_address", reason: null });
  });
});

describe("a refund beyond the plan's daily limits", () => {
  it.each([
    ["withdrawals a day", ["--daily-withdrawals", "0"], /allows 0 withdrawals a day/],
    ["gas budget", ["--gas-budget", "0"], /daily gas budget of 0 BNB/],
  ])("%s: 429 with Retry-After and nothing recorded, for the merchant's refund and for the payer's claim", async (_name, plan, why) => {
    const { sessionId } = await paidSession(shop, "3", "3");
    const { refundId: claimable, claimUrl: link } = (await refundReq(shop, sessionId, { amount: "1" })).body.data;
    await plansCommand(db(), ["set", "starter", ...plan]);
    const before = await countRows(db());

    const merchant = await refundReq(shop, sessionId, { amount: "1", toAddress: PAYER_NEW_ADDRESS });
    expect(merchant.status).toBe(429);
    expect(merchant.body.error).toMatchObject({ code: "RATE_LIMITED", message: expect.stringMatching(why) });
    expect(Number(merchant.headers.get("retry-after"))).toBeGreaterThan(0);

    const payer = await claimReq(link, PAYER_NEW_ADDRESS);
    expect(payer.status).toBe(429);
    expect(payer.body.error.code).toBe("RATE_LIMITED");
    expect(Number(payer.headers.get("retry-after"))).toBeGreaterThan(0);
    expectNoInternals(payer);
    expectShownAs(payer, "claimUnavailable");

    expect(await countRows(db())).toEqual(before);
    expect(await refundOf(claimable)).toMatchObject({ status: "awaiting_address", reason: expect.stringMatching(why) });
  });
});
