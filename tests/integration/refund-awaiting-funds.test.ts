/**
 * Refunds the withdrawal wallet cannot pay yet (item 13): made before the payment's
 * tokens were forwarded into the wallet, or for a payment forwarded elsewhere (merchantWallet),
 * the refund is recorded `awaiting_funds` (no ledger row, no 502), says why, counts against what
 * the payment can still refund, and the job sends it exactly once when the wallet can pay — or
 * the merchant cancels it. The shop's wallet starts empty here.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { POST as cancelRefund } from "@/app/api/v1/refund/[refundId]/cancel/route";
import { GET as getRefund } from "@/app/api/v1/refund/[refundId]/route";
import { paymentSessions, webhookDeliveries } from "@/lib/db/schema";
import { sendAwaitingRefunds } from "@/lib/domain/refunds/awaiting-funds";
import { SCHEDULE } from "@/lib/ops/jobs/schedule";
import { scanRoundStep, sendAwaitingRefundsStep } from "@/lib/ops/jobs/steps";
import { payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import {
  apiKey,
  claimPageReq,
  claimReq,
  countRows,
  PAYER_NEW_ADDRESS,
  paidSession,
  refundReq,
  refundsOfSession,
  settleWithdrawals,
  units,
  useRefundShop,
} from "../helpers/refunds";

const shop = useRefundShop({ mintToWallet: false });
const db = () => shop.db();
/** Every waiting refund checked again now (the job rests each one 30 s between checks). */
const recheck = () => sendAwaitingRefunds(db(), { limit: SCHEDULE.refunds.embedded.pageSize, recheckAfterMs: 0 });
const refundOf = async (refundId: string) => (await call(getRefund, { headers: apiKey(shop), params: { refundId } })).body.data;

async function refundEvents(refundId: string): Promise<{ type: string; status: string }[]> {
  const rows = await db().select({ payload: webhookDeliveries.payload }).from(webhookDeliveries);
  return rows
    .map((r) => JSON.parse(r.payload) as { type: string; data: { refundId: string; status: string } })
    .filter((e) => e.type.startsWith("refund.") && e.data.refundId === refundId)
    .map((e) => ({ type: e.type, status: e.data.status }));
}

/** A payment forwarded into the domain's withdrawal wallet (no merchantWallet, no payout address), scanned but not forwarded yet. */
async function paidNotForwarded(amount: string): Promise<string> {
  const created = await call(create, { method: "POST", headers: apiKey(shop), body: { tokenId: shop.merchant().tokenId, amount } });
  expect(created.status).toBe(201);
  const { sessionId, depositAddress } = created.body.data;
  await shop.chain().client.waitForTransactionReceipt({ hash: await payTo(shop.chain().url, shop.token(), depositAddress, units(amount)) });
  await scanRoundStep(db(), SCHEDULE.scan.embedded.pageSize, { networks: ["bsc"] });
  const [session] = await db()
    .select({ status: paymentSessions.status, forwardTo: paymentSessions.forwardTo })
    .from(paymentSessions)
    .where(eq(paymentSessions.id, sessionId));
  expect(session).toEqual({ status: "completed", forwardTo: shop.wallet() });
  return sessionId;
}

describe("a refund made before the payment's tokens reached the withdrawal wallet", () => {
  it("waits (no ledger row), is counted, and is sent exactly once by the job when the forward arrives", async () => {
    const sessionId = await paidNotForwarded("2");
    expect(await tokenBalance(shop.chain().url, shop.token(), shop.wallet())).toBe(0n);
    const before = await countRows(db());

    const res = await refundReq(shop, sessionId, { amount: "2", toAddress: PAYER_NEW_ADDRESS });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ status: "awaiting_funds", amount: "2", toAddress: PAYER_NEW_ADDRESS, withdrawalId: null });
    expect(res.body.data.reason).toMatch(/this payment's tokens are forwarded there, so the refund is sent as soon as they arrive/);
    const refundId = res.body.data.refundId as string;
    expect(await countRows(db())).toEqual({ refunds: before.refunds + 1, withdrawals: before.withdrawals });
    expect(await refundEvents(refundId)).toEqual([{ type: "refund.created", status: "awaiting_funds" }]);

    // It is spoken for: a second refund of the whole payment is refused.
    const second = await refundReq(shop, sessionId, { amount: "1", toAddress: PAYER_NEW_ADDRESS });
    expect(second.status).toBe(400);
    expect(second.body.error.message).toMatch(/already refunded/);

    // Checked again before the forward: still waiting, nothing recorded.
    expect(await recheck()).toMatchObject({ sent: 0, waiting: 1 });
    expect((await refundsOfSession(db(), sessionId)).withdrawals).toHaveLength(0);

    await runEngine(db(), shop.chain().url); // the forward into the withdrawal wallet
    expect(await tokenBalance(shop.chain().url, shop.token(), shop.wallet())).toBe(units("2"));
    const balance = await tokenBalance(shop.chain().url, shop.token(), PAYER_NEW_ADDRESS);
    // Two runs at once (two instances, a tick and a cron): one send.
    const runs = await Promise.all([recheck(), recheck()]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect((await refundsOfSession(db(), sessionId)).withdrawals).toHaveLength(1);
    await settleWithdrawals(shop);
    expect(await refundOf(refundId)).toMatchObject({ status: "completed", reason: null });
    expect(await tokenBalance(shop.chain().url, shop.token(), PAYER_NEW_ADDRESS)).toBe(balance + units("2"));
    expect(await refundEvents(refundId)).toEqual([
      { type: "refund.created", status: "awaiting_funds" },
      { type: "refund.completed", status: "completed" },
    ]);
    // Nothing left for the job.
    expect(await sendAwaitingRefundsStep(db(), 20)).toEqual({ sent: 0, waiting: 0 });
  });
});

describe("a refund of a payment forwarded elsewhere (the wallet never receives it)", () => {
  it("says so to the merchant; the payer's claim waits with the address; the merchant can cancel it", async () => {
    const { sessionId } = await paidSession(shop, "3", "3"); // forwarded to MERCHANT_WALLET
    const claim = await refundReq(shop, sessionId, { amount: "3" });
    const refundId = claim.body.data.refundId as string;
    const link = claim.body.data.claimUrl as string;
    const before = await countRows(db());

    const claimed = await claimReq(link, PAYER_NEW_ADDRESS);
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body.data).toMatchObject({ status: "awaiting_funds", toAddress: PAYER_NEW_ADDRESS, addressFrom: "payer" });
    expect(await countRows(db())).toEqual(before);
    const merchantView = await refundOf(refundId);
    expect(merchantView.reason).toMatch(/it will never receive this payment's tokens: they were forwarded to 0x976EA7.*or cancel it/);
    // The payer sees the state, never the merchant's internals.
    const page = (await claimPageReq(link)).body.data;
    expect(page).toMatchObject({ status: "awaiting_funds", toAddress: PAYER_NEW_ADDRESS, reason: null });
    // A second claim cannot change the address.
    expect((await claimReq(link, shop.merchant().withdrawalAddress)).status).toBe(400);

    const cancelled = await call(cancelRefund, { method: "POST", headers: apiKey(shop), params: { refundId } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: "cancelled" });
    // Funds arriving afterwards send nothing.
    await shop.chain().client.waitForTransactionReceipt({ hash: await payTo(shop.chain().url, shop.token(), shop.wallet(), units("3")) });
    expect(await recheck()).toMatchObject({ sent: 0 });
    expect(await countRows(db())).toEqual(before);
  });

  it("goes out once the merchant tops the wallet up", async () => {
    const { sessionId } = await paidSession(shop, "4", "4");
    const wallet = await tokenBalance(shop.chain().url, shop.token(), shop.wallet());
    const headers = { "idempotency-key": `wait-${sessionId}` };
    const before = await countRows(db());
    const res = await refundReq(shop, sessionId, { amount: "4", toAddress: PAYER_NEW_ADDRESS }, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.status).toBe("awaiting_funds");
    // Its Idempotency-Key replays it (recorded in the key's transaction), and records nothing more.
    const again = await refundReq(shop, sessionId, { amount: "4", toAddress: PAYER_NEW_ADDRESS }, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toMatchObject({ refundId: res.body.data.refundId, status: "awaiting_funds" });
    expect(await countRows(db())).toEqual({ refunds: before.refunds + 1, withdrawals: before.withdrawals });
    const missing = units("4") - wallet;
    await shop.chain().client.waitForTransactionReceipt({
      hash: await payTo(shop.chain().url, shop.token(), shop.wallet(), missing),
    });
    expect(await recheck()).toMatchObject({ sent: 1 });
    await settleWithdrawals(shop);
    expect(await refundOf(res.body.data.refundId)).toMatchObject({ status: "completed" });
  });
});
