/**
 * Refunds on anvil: a claim the payer completes with their own address, a refund the
 * merchant sends straight to an address, never beyond what the payment received (concurrent
 * refunds: one wins), expired and cancelled claims send nothing, Idempotency-Key replays, and
 * bad input answers a clear error and changes nothing.
 */

import { eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as claim } from "@/app/api/refund/[refundId]/claim/route";
import { GET as claimPage } from "@/app/api/refund/[refundId]/route";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as cancelPayment } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { POST as refund } from "@/app/api/v1/payment/[sessionId]/refund/route";
import { GET as refundsOf } from "@/app/api/v1/payment/[sessionId]/refunds/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { POST as cancelRefund } from "@/app/api/v1/refund/[refundId]/cancel/route";
import { GET as getRefund } from "@/app/api/v1/refund/[refundId]/route";
import { asOwner } from "@/lib/accounts/members/principal";
import { getDb } from "@/lib/db";
import { paymentSessions, refunds, webhookDeliveries, webhookEndpoints, withdrawals } from "@/lib/db/schema";
import { allowCatalogueToken } from "@/lib/domain/tokens/catalogue";
import { confirmWithdrawals } from "@/lib/domain/withdrawals/confirm-withdrawals";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { type Merchant, newApiKey, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call, fromClient, SITE } from "../helpers/http";
import { claimLinkParts } from "../helpers/refunds";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const PAYER = privateKeyToAccount(ANVIL_DEFAULT_KEYS[1]!).address;
const PAYER_NEW_ADDRESS = "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097" as Address;
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;

let merchant: Merchant;
let token: Address;
let wallet: Address;
const key = () => ({ "x-api-key": merchant.apiKey });
const units = (amount: string) => parseUnits(amount, 18);
const countRows = async () => ({
  refunds: (await db().select({ id: refunds.id }).from(refunds)).length,
  withdrawals: (await db().select({ id: withdrawals.id }).from(withdrawals)).length,
});

/** A payment of `asked` paid with `paid` (base units), scanned until the engine has nothing left to do. */
async function paidSession(asked: string, paid: string): Promise<{ sessionId: string; depositAddress: Address }> {
  const created = await call(create, {
    method: "POST",
    headers: key(),
    body: { tokenId: merchant.tokenId, amount: asked, merchantWallet: MERCHANT_WALLET, orderId: `ORD-${asked}-${paid}` },
  });
  expect(created.status).toBe(201);
  const { sessionId, depositAddress } = created.body.data;
  const hash = await payTo(chain().url, token, depositAddress, units(paid));
  await chain().client.waitForTransactionReceipt({ hash });
  await runEngine(db(), chain().url);
  const [session] = await db().select({ status: paymentSessions.status }).from(paymentSessions).where(eq(paymentSessions.id, sessionId));
  expect(session?.status).toBe("completed");
  return { sessionId, depositAddress };
}

async function settleWithdrawals(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await chain().client.mine({ blocks: 1 });
    if ((await tendLedgerStep(db())).pending === 0) return;
  }
  throw new Error("withdrawals did not settle");
}

const refundReq = (sessionId: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call(refund, { method: "POST", headers: { ...key(), ...headers }, params: { sessionId }, body });
/** The payer's claim through its link (`…/refund/<id>?k=<secret>`), from one client address. */
const claimReq = (link: string, address: string) => {
  const { refundId, query } = claimLinkParts(link);
  return call(claim, {
    method: "POST",
    path: `/api/refund/${refundId}/claim${query}`,
    params: { refundId },
    body: { address },
    headers: fromClient("203.0.113.9"),
  });
};

beforeAll(async () => {
  useConfig({
    BSC_RPC_URL: chain().url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    CONFIRMATIONS: "1",
    WEBHOOK_ALLOW_PRIVATE: "true",
  });
  await fundGasTank(chain().url);
  const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
  token = await deployTestToken(chain().url, { symbol: "RFD", mintTo: [wallet, PAYER] });
  await allowCatalogueToken(await getDb(), "bsc", token);
  const { POST: registerToken } = await import("@/app/api/user/tokens/route");
  merchant.tokenId = (
    await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
  ).body.data.tokenId;
  await call(patchDomain, {
    method: "PATCH",
    headers: merchant.auth,
    params: { id: String(merchant.domainId) },
    body: { webhookUrl: "http://127.0.0.1:9/hooks" },
  });
});

describe("a refund claimed by the payer", () => {
  it("waits for the payer's address, shows the sender as a hint only, and arrives where the payer said", async () => {
    const { sessionId } = await paidSession("10", "12.5");
    const created = await refundReq(sessionId);
    expect(created.status).toBe(201);
    // No amount: the overpaid part of a completed payment.
    expect(created.body.data).toMatchObject({ status: "awaiting_address", amount: "2.5", token: "RFD", toAddress: null, txHash: null });
    const { refundId, claimUrl } = created.body.data;
    // The link carries its secret: 32 random bytes, base64url.
    expect(claimUrl).toMatch(new RegExp(`/refund/${refundId}\\?k=[A-Za-z0-9_-]{43}$`));

    const { query } = claimLinkParts(claimUrl);
    const page = await call(claimPage, { path: `/api/refund/${refundId}${query}`, params: { refundId } });
    expect(page.body.data).toMatchObject({ status: "awaiting_address", amount: "2.5", senderHint: PAYER, orderId: "ORD-10-12.5" });

    const claimed = await claimReq(claimUrl, PAYER_NEW_ADDRESS.toLowerCase());
    expect(claimed.status).toBe(200);
    expect(claimed.body.data).toMatchObject({ status: "sending", toAddress: PAYER_NEW_ADDRESS, addressFrom: "payer" });
    const [withdrawal] = await db().select().from(withdrawals).where(eq(withdrawals.refundId, refundId));
    expect(withdrawal).toMatchObject({ fromAddress: wallet, toAddress: PAYER_NEW_ADDRESS, amount: units("2.5") });

    await settleWithdrawals();
    expect(await tokenBalance(chain().url, token, PAYER_NEW_ADDRESS)).toBe(units("2.5"));
    const done = await call(getRefund, { headers: key(), params: { refundId } });
    expect(done.body.data).toMatchObject({ status: "completed", txHash: withdrawal?.txHash });
    expect(done.body.data.completedAt).toEqual(expect.any(String));
    // The payer's page: the transaction, and when it was sent (its confirmation), once it is sent; none before.
    expect(page.body.data).toMatchObject({ txHash: null, sentAt: null });
    const sent = await call(claimPage, { path: `/api/refund/${refundId}${query}`, params: { refundId } });
    const [confirmed] = await db().select().from(withdrawals).where(eq(withdrawals.refundId, refundId));
    expect(sent.body.data).toMatchObject({
      status: "completed",
      txHash: withdrawal?.txHash,
      sentAt: (confirmed?.confirmedAt ?? confirmed?.createdAt)?.toISOString(),
    });
    expect(sent.body.data.sentAt).toEqual(expect.any(String));

    const listed = await call(refundsOf, { headers: key(), params: { sessionId } });
    expect(listed.body.data.items.map((r: { refundId: string }) => r.refundId)).toEqual([refundId]);

    const [endpoint] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.domainId, merchant.domainId));
    const events = (
      await db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint?.id ?? -1))
    )
      .map((d) => JSON.parse(d.payload) as { type: string; data: { refundId?: string; orderId?: string; withdrawalId?: string } })
      .filter((e) => e.data.refundId === refundId);
    // The refund's payout is a withdrawal: its webhook names the refund, so a shop books the money once.
    expect(events.map((e) => e.type)).toEqual(["refund.created", "withdrawal.completed", "refund.completed"]);
    expect(events[0]?.data.orderId).toBe("ORD-10-12.5");
    expect(events[1]?.data.withdrawalId).toBe(withdrawal?.id);

    // Claimed once: a second claim (to another address) sends nothing.
    const before = await countRows();
    const again = await claimReq(claimUrl, MERCHANT_WALLET);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain("already claimed");
    expect(await countRows()).toEqual(before);
  });

  it("sends nothing for a cancelled or an expired claim", async () => {
    const { sessionId } = await paidSession("3", "3");
    const first = await refundReq(sessionId, { amount: "1" });
    const cancelled = await call(cancelRefund, { method: "POST", headers: key(), params: { refundId: first.body.data.refundId } });
    expect(cancelled.body.data).toMatchObject({ status: "cancelled", reason: "cancelled by the merchant" });

    const second = await refundReq(sessionId, { amount: "1" });
    await db()
      .update(refunds)
      .set({ claimExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(refunds.id, second.body.data.refundId));

    const before = await countRows();
    for (const [link, message] of [
      [first.body.data.claimUrl, "cancelled"],
      [second.body.data.claimUrl, "expired"],
    ] as const) {
      const res = await claimReq(link, PAYER_NEW_ADDRESS);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    expect(await countRows()).toEqual(before);
    const expired = await call(getRefund, { headers: key(), params: { refundId: second.body.data.refundId } });
    expect(expired.body.data).toMatchObject({ status: "cancelled", reason: expect.stringContaining("expired") });
    // Neither holds its amount any more: the whole payment can still be refunded.
    const whole = await refundReq(sessionId, { amount: "3" });
    expect(whole.status).toBe(201);
  });
});

describe("a refund the merchant sends to an address", () => {
  it("never exceeds what the payment received: of two concurrent full refunds one wins", async () => {
    const { sessionId } = await paidSession("4", "4");
    const before = await countRows();
    const balance = await tokenBalance(chain().url, token, PAYER_NEW_ADDRESS);
    const results = await Promise.all([
      refundReq(sessionId, { amount: "4", toAddress: PAYER_NEW_ADDRESS }),
      refundReq(sessionId, { amount: "4", toAddress: PAYER_NEW_ADDRESS }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
    const refused = results.find((r) => r.status === 400);
    expect(refused?.body.error.message).toMatch(/more than this payment can still refund|already refunded/);
    expect(await countRows()).toEqual({ refunds: before.refunds + 1, withdrawals: before.withdrawals + 1 });

    // Claims too: two unclaimed refunds of the whole amount at once, one is created.
    const { sessionId: other } = await paidSession("5", "5");
    const claims = await Promise.all([refundReq(other, { amount: "5" }), refundReq(other, { amount: "5" })]);
    expect(claims.map((r) => r.status).sort()).toEqual([201, 400]);

    await settleWithdrawals();
    expect(await tokenBalance(chain().url, token, PAYER_NEW_ADDRESS)).toBe(balance + units("4"));
    const sent = results.find((r) => r.status === 201);
    const done = await call(getRefund, { headers: key(), params: { refundId: sent?.body.data.refundId } });
    expect(done.body.data).toMatchObject({ status: "completed", addressFrom: "merchant" });
  });

  it("replays the same refund for the same Idempotency-Key, and refuses the key with another body", async () => {
    const { sessionId } = await paidSession("6", "6");
    const headers = { "idempotency-key": "refund-6" };
    const before = await countRows();
    const first = await refundReq(sessionId, { amount: "1", toAddress: PAYER_NEW_ADDRESS }, headers);
    const again = await refundReq(sessionId, { amount: "1", toAddress: PAYER_NEW_ADDRESS }, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.refundId).toBe(first.body.data.refundId);
    expect(await countRows()).toEqual({ refunds: before.refunds + 1, withdrawals: before.withdrawals + 1 });
    const conflict = await refundReq(sessionId, { amount: "2", toAddress: PAYER_NEW_ADDRESS }, headers);
    expect(conflict.status).toBe(409);
    expect(await countRows()).toEqual({ refunds: before.refunds + 1, withdrawals: before.withdrawals + 1 });
    await settleWithdrawals();
  });
});

describe("bad input", () => {
  it("answers a clear error and changes nothing", async () => {
    await resetRateLimits();
    const { sessionId, depositAddress } = await paidSession("2", "2");
    const open = await refundReq(sessionId, { amount: "1" });
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    const refundId = open.body.data.refundId as string;
    const link = open.body.data.claimUrl as string;
    const pending = await call(create, { method: "POST", headers: key(), body: { tokenId: merchant.tokenId, amount: "1" } });
    const unpaid = await call(create, { method: "POST", headers: key(), body: { tokenId: merchant.tokenId, amount: "1" } });
    await call(cancelPayment, { method: "POST", headers: key(), params: { sessionId: unpaid.body.data.sessionId } });
    const stranger = await newApiKey((await setUpMerchant({ contractAddress: token, network: "bsc" })).auth);
    const before = await countRows();

    const cases: [Promise<{ status: number; body: any }>, number, string][] = [
      [refundReq(sessionId, { toAddress: "0x1234" }), 400, "toAddress must be a 0x-prefixed"],
      [refundReq(sessionId, { toAddress: depositAddress }), 400, "toAddress"],
      [refundReq(sessionId, { toAddress: wallet }), 400, "toAddress"],
      [refundReq(sessionId, { toAddress: "0x0000000000000000000000000000000000000000" }), 400, "zero address"],
      [refundReq(sessionId, { amount: "1.5" }), 400, "more than this payment can still refund (1)"],
      [refundReq(sessionId, { amount: "0" }), 400, "amount must be greater than 0"],
      [refundReq(sessionId, { amount: "-1" }), 400, "amount"],
      [refundReq(pending.body.data.sessionId), 400, "still pending"],
      [refundReq(unpaid.body.data.sessionId), 400, "nothing arrived"],
      [call(refund, { method: "POST", headers: { "x-api-key": stranger.key }, params: { sessionId }, body: {} }), 404, "not found"],
      [call(getRefund, { headers: { "x-api-key": stranger.key }, params: { refundId } }), 404, "refund not found"],
      [call(refundsOf, { headers: { "x-api-key": stranger.key }, params: { sessionId } }), 404, "not found"],
      [call(refundsOf, { headers: key(), params: { sessionId: "not-a-uuid" } }), 400, "sessionId"],
      [call(cancelRefund, { method: "POST", headers: { "x-api-key": stranger.key }, params: { refundId } }), 404, "refund not found"],
      [claimReq(link, "not-an-address"), 400, "address must be a 0x-prefixed"],
      [claimReq(link, depositAddress), 400, "address"],
      [claimReq(link, wallet), 400, "address"],
      [claimReq(link, "0x0000000000000000000000000000000000000000"), 400, "zero address"],
      [claimReq(`${SITE}/refund/3f1e8a4e-9a55-4c0e-8d1e-2d3c4b5a6f70?k=x`, PAYER_NEW_ADDRESS), 404, "refund not found"],
      [claimReq(`${SITE}/refund/${refundId}`, PAYER_NEW_ADDRESS), 404, "refund not found"],
      [claimReq(`${SITE}/refund/${refundId}?k=${"A".repeat(43)}`, PAYER_NEW_ADDRESS), 404, "refund not found"],
      [claimReq(`${SITE}/refund/not-a-uuid?k=x`, PAYER_NEW_ADDRESS), 400, "refundId"],
    ];
    for (const [request, status, message] of cases) {
      const res = await request;
      expect(res.status, message).toBe(status);
      expect(res.body.success).toBe(false);
      expect(res.body.error.message).toContain(message);
    }
    expect(await countRows()).toEqual(before);
    const unchanged = await call(getRefund, { headers: key(), params: { refundId } });
    expect(unchanged.body.data).toMatchObject({ status: "awaiting_address", toAddress: null });
  });

  it("limits refund claims per client address", async () => {
    await resetRateLimits();
    const statuses: number[] = [];
    const unknown = `${SITE}/refund/3f1e8a4e-9a55-4c0e-8d1e-2d3c4b5a6f70?k=x`;
    for (let i = 0; i < 12; i++) statuses.push((await claimReq(unknown, PAYER_NEW_ADDRESS)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(404));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe("refunds on the dashboard", () => {
  it("offers the default amount, creates one refund per form, and asks for the code when two-factor sign-in is on", async () => {
    const { paymentRefunds, refundFromDashboard } = await import("@/lib/domain/refunds/dashboard-refunds");
    const { users } = await import("@/lib/db/schema");
    const [user] = await db().select().from(users).where(eq(users.id, merchant.userId));
    const { sessionId } = await paidSession("8", "9");
    expect(await paymentRefunds(db(), merchant.userId, sessionId)).toEqual({ refunds: [], refundable: { amount: "9", byDefault: "1" } });

    const before = await countRows();
    const first = await refundFromDashboard(db(), asOwner(user!), sessionId, {}, "form-1");
    const again = await refundFromDashboard(db(), asOwner(user!), sessionId, {}, "form-1");
    expect(again.refundId).toBe(first.refundId);
    // The link is in the first answer only: the same form again answers the refund without it.
    expect(first.claimUrl).toMatch(/\?k=/);
    expect(again).toMatchObject({ claimUrl: null, claimLinkIssued: true });
    // The same form again after two-factor sign-in was turned on (or its code expired): the refund it made, no code asked.
    const replayed = await refundFromDashboard(db(), asOwner({ ...user!, totpEnabledAt: new Date() }), sessionId, {}, "form-1");
    expect(replayed.refundId).toBe(first.refundId);
    expect(await countRows()).toEqual({ ...before, refunds: before.refunds + 1 });
    const after = await paymentRefunds(db(), merchant.userId, sessionId);
    expect(after.refunds.map((r) => r.refundId)).toEqual([first.refundId]);
    // The overpaid part went back: the price itself only with an amount the merchant types.
    expect(after.refundable).toEqual({ amount: "8", byDefault: null });

    await expect(refundFromDashboard(db(), asOwner({ ...user!, totpEnabledAt: new Date() }), sessionId, {}, "form-2")).rejects.toThrow(
      "enter the current code",
    );
    const stranger = await setUpMerchant({ contractAddress: token, network: "bsc" });
    const [other] = await db().select().from(users).where(eq(users.id, stranger.userId));
    await expect(refundFromDashboard(db(), asOwner(other!), sessionId, {}, "form-3")).rejects.toThrow("not found");
    await expect(paymentRefunds(db(), stranger.userId, sessionId)).rejects.toThrow("not found");
    expect(await countRows()).toEqual({ ...before, refunds: before.refunds + 1 });
  });
});

describe("a refund whose payout settled without it", () => {
  it("follows its payout on the job's next round (a request settled its refused send and stopped before the refund did)", async () => {
    const { sessionId } = await paidSession("10", "11");
    const sent = await refundReq(sessionId, { toAddress: PAYER_NEW_ADDRESS });
    expect(sent.status).toBe(201);
    const { refundId } = sent.body.data;
    // The withdrawal settles with no follower told, as awaitSettlement does for a request.
    for (let i = 0; i < 10; i++) {
      await chain().client.mine({ blocks: 1 });
      if ((await confirmWithdrawals(db())).pending === 0) break;
    }
    const [withdrawal] = await db().select().from(withdrawals).where(eq(withdrawals.refundId, refundId));
    expect(withdrawal?.status).toBe("completed");
    const [behind] = await db().select({ status: refunds.status }).from(refunds).where(eq(refunds.id, refundId));
    expect(behind?.status).toBe("sending");

    await tendLedgerStep(db());
    const done = await call(getRefund, { headers: key(), params: { refundId } });
    expect(done.body.data).toMatchObject({ status: "completed", amount: "1" });
    // Once: a second round finds nothing behind.
    await tendLedgerStep(db());
    const types = (await db().select({ payload: webhookDeliveries.payload }).from(webhookDeliveries).orderBy(webhookDeliveries.id))
      .map((d) => JSON.parse(d.payload) as { type: string; data: { refundId?: string } })
      .filter((e) => e.data.refundId === refundId)
      .map((e) => e.type);
    expect(types).toEqual(["refund.created", "withdrawal.completed", "refund.completed"]);
  });
});
