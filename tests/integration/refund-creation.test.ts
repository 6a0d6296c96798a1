/**
 * Creating refunds: an Idempotency-Key replay answers the
 * first refund even once it used up the payment; a refund whose wallet can no longer pay is
 * refused at creation (a claim too); the default amount is decided under the session's lock;
 * refund.created of a refund sent at once names its withdrawal.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as removeDomain } from "@/app/api/user/domains/[id]/route";
import { POST as addDomain } from "@/app/api/user/domains/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { GET as getWithdrawal } from "@/app/api/v1/withdrawal/[withdrawalId]/route";
import { GET as withdrawalHistory } from "@/app/api/v1/withdrawal/history/route";
import { POST as sendWithdrawal } from "@/app/api/v1/withdrawal/send/route";
import { paymentSessions, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { NO_DEFAULT_REFUND } from "@/lib/domain/refunds/refundable";
import { payTo, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";
import {
  apiKey,
  countRows,
  MERCHANT_WALLET,
  PAYER_NEW_ADDRESS,
  paidSession,
  refundReq,
  refundsOfSession,
  settleWithdrawals,
  units,
  useRefundShop,
} from "../helpers/refunds";

const shop = useRefundShop();
const db = () => shop.db();
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe("an Idempotency-Key replay of a refund that used up the payment", () => {
  // (Without an amount an exact payment is refused: refund-defaults.test.ts.)
  it.each([["with the whole amount", { amount: "3" }]])(
    "answers the first refund, %s; another body is 409 and nothing changes",
    async (_name, body) => {
      const { sessionId } = await paidSession(shop, "3", "3");
      const headers = { "idempotency-key": `full-${sessionId}` };
      const first = await refundReq(shop, sessionId, { ...body, toAddress: PAYER_NEW_ADDRESS }, headers);
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.body.data.amount).toBe("3");
      const again = await refundReq(shop, sessionId, { ...body, toAddress: PAYER_NEW_ADDRESS }, headers);
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body.data.refundId).toBe(first.body.data.refundId);
      const conflict = await refundReq(shop, sessionId, { amount: "1", toAddress: PAYER_NEW_ADDRESS }, headers);
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.code).toBe("IDEMPOTENCY_CONFLICT");
      const after = await refundsOfSession(db(), sessionId);
      expect(after.refunds).toHaveLength(1);
      expect(after.withdrawals).toHaveLength(1);
      await settleWithdrawals(shop);
      // Still the same answer once the refund completed.
      const later = await refundReq(shop, sessionId, { ...body, toAddress: PAYER_NEW_ADDRESS }, headers);
      expect(later.body.data).toMatchObject({ refundId: first.body.data.refundId, status: "completed" });
    },
  );

  it("answers the first claim too", async () => {
    const { sessionId } = await paidSession(shop, "2", "2");
    const headers = { "idempotency-key": `claim-${sessionId}` };
    const first = await refundReq(shop, sessionId, { amount: "2" }, headers);
    const again = await refundReq(shop, sessionId, { amount: "2" }, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.data.refundId).toBe(first.body.data.refundId);
    expect((await refundsOfSession(db(), sessionId)).refunds).toHaveLength(1);
  });
});

describe("a refund the payment's wallet can no longer pay", () => {
  it("is refused when it is created, a claim as well as a refund sent at once, and nothing is recorded", async () => {
    const added = await call(addDomain, { method: "POST", headers: shop.merchant().auth, body: { domain: "https://gone.example.com" } });
    const domainId = added.body.data.domainId as number;
    const created = await call(create, {
      method: "POST",
      headers: apiKey(shop),
      body: { tokenId: shop.merchant().tokenId, amount: "2", domainId, merchantWallet: MERCHANT_WALLET },
    });
    const { sessionId, depositAddress } = created.body.data;
    await shop.chain().client.waitForTransactionReceipt({ hash: await payTo(shop.chain().url, shop.token(), depositAddress, units("2")) });
    await runEngine(db(), shop.chain().url);
    const removed = await call(removeDomain, { method: "DELETE", headers: shop.merchant().auth, params: { id: String(domainId) } });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const before = await countRows(db());
    for (const body of [{}, { amount: "1" }, { toAddress: PAYER_NEW_ADDRESS }]) {
      const res = await refundReq(shop, sessionId, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatchObject({
        code: "VALIDATION_ERROR",
        message: expect.stringContaining(`domain (${domainId}) was removed`),
      });
    }
    expect(await countRows(db())).toEqual(before);
  });
});

describe("a refund without an amount", () => {
  it.skipIf(!onPostgres)("is decided under the session's lock: of two at once, one refunds the overpaid part", async () => {
    const { sessionId } = await paidSession(shop, "10", "12");
    let locked!: () => void;
    let release!: () => void;
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Both requests make their estimate while the payment's row is locked, then take turns.
    const holder = db().transaction(async (tx) => {
      await tx.select({ id: paymentSessions.id }).from(paymentSessions).where(eq(paymentSessions.id, sessionId)).for("update");
      locked();
      await held;
    });
    await lockTaken;
    const both = [refundReq(shop, sessionId), refundReq(shop, sessionId)];
    for (let i = 0; i < 100; i++) {
      const [row] = await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(sql`pg_stat_activity`)
        .where(sql`datname = current_database() and wait_event_type = 'Lock'`);
      if ((row?.n ?? 0) >= 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    release();
    await holder;
    const results = await Promise.all(both);
    expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(results.find((r) => r.status === 201)?.body.data.amount).toBe("2");
    // The other one finds nothing beyond the price left: refused, not the price instead.
    expect(results.find((r) => r.status === 400)?.body.error.message).toBe(NO_DEFAULT_REFUND);
    expect((await refundsOfSession(db(), sessionId)).refunds.map((r) => r.amount)).toEqual([units("2")]);
  });

  it("never refunds the overpaid part twice, however two requests at once interleave", async () => {
    const { sessionId } = await paidSession(shop, "10", "11");
    const results = await Promise.all([refundReq(shop, sessionId), refundReq(shop, sessionId)]);
    const amounts = results.filter((r) => r.status === 201).map((r) => r.body.data.amount as string);
    expect(amounts.filter((a) => a === "1")).toHaveLength(1);
    const total = (await refundsOfSession(db(), sessionId)).refunds.reduce((sum, r) => sum + r.amount, 0n);
    expect(total).toBeLessThanOrEqual(units("11"));
  });
});

describe("refund.created", () => {
  it("names the withdrawal of a refund sent at once; a claim's has none yet", async () => {
    const { sessionId } = await paidSession(shop, "4", "4");
    const sent = await refundReq(shop, sessionId, { amount: "1", toAddress: PAYER_NEW_ADDRESS });
    const waiting = await refundReq(shop, sessionId, { amount: "1" });
    const [endpoint] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.domainId, shop.merchant().domainId));
    const created = (
      await db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint?.id ?? -1))
    )
      .map((d) => JSON.parse(d.payload) as { type: string; data: { refundId: string; withdrawalId: string | null; txHash: string | null } })
      .filter((e) => e.type === "refund.created");
    const { withdrawals } = await refundsOfSession(db(), sessionId);
    expect(created.find((e) => e.data.refundId === sent.body.data.refundId)?.data).toMatchObject({
      withdrawalId: withdrawals[0]?.id,
      txHash: withdrawals[0]?.txHash,
    });
    expect(withdrawals[0]?.id).toEqual(expect.any(String));
    expect(created.find((e) => e.data.refundId === waiting.body.data.refundId)?.data).toMatchObject({ withdrawalId: null, txHash: null });
    await settleWithdrawals(shop);
  });
});

describe("a refund's withdrawal", () => {
  it("names its refund in GET /withdrawal/:id, the history and withdrawal.completed; an ordinary withdrawal names none", async () => {
    const { sessionId } = await paidSession(shop, "2", "2");
    const refund = await refundReq(shop, sessionId, { amount: "2", toAddress: PAYER_NEW_ADDRESS });
    const own = await call(sendWithdrawal, {
      method: "POST",
      headers: apiKey(shop),
      body: { domainId: shop.merchant().domainId, tokenId: shop.merchant().tokenId, toAddress: MERCHANT_WALLET, amount: "1" },
    });
    expect([refund.status, own.status]).toEqual([201, 201]);
    await settleWithdrawals(shop);
    const { refundId, withdrawalId } = refund.body.data as { refundId: string; withdrawalId: string };

    const read = await call(getWithdrawal, { headers: apiKey(shop), params: { withdrawalId } });
    expect(read.body.data).toMatchObject({ withdrawalId, refundId, status: "completed" });
    expect(own.body.data.refundId).toBeNull();
    const history = (await call(withdrawalHistory, { headers: apiKey(shop) })).body.data.items as {
      withdrawalId: string;
      refundId: string | null;
    }[];
    expect(history.find((w) => w.withdrawalId === withdrawalId)?.refundId).toBe(refundId);
    expect(history.find((w) => w.withdrawalId === own.body.data.withdrawalId)?.refundId).toBeNull();

    const [endpoint] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.domainId, shop.merchant().domainId));
    const completed = (
      await db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint?.id ?? -1))
    )
      .map((d) => JSON.parse(d.payload) as { type: string; data: { withdrawalId: string; refundId: string | null } })
      .filter((e) => e.type === "withdrawal.completed");
    expect(completed.find((e) => e.data.withdrawalId === withdrawalId)?.data.refundId).toBe(refundId);
    expect(completed.find((e) => e.data.withdrawalId === own.body.data.withdrawalId)?.data.refundId).toBeNull();
  });
});
