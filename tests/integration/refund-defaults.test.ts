/**
 * A refund without an amount (item 12): on a completed payment it returns only what was
 * paid beyond the price (and late transfers), less what went back already; with nothing of that
 * left it is refused on `amount` and records nothing — a retried call without an Idempotency-Key
 * must never give the goods away. Refunding the price takes an explicit amount.
 */

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { asOwner } from "@/lib/accounts/members/principal";
import { users } from "@/lib/db/schema";
import { paymentRefunds, refundFromDashboard } from "@/lib/domain/refunds/dashboard-refunds";
import { NO_DEFAULT_REFUND } from "@/lib/domain/refunds/refundable";
import type { CallResult } from "../helpers/http";
import {
  countRows,
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

function expectNoDefault(res: CallResult) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error).toMatchObject({
    code: "VALIDATION_ERROR",
    message: NO_DEFAULT_REFUND,
    details: [{ path: "amount", message: NO_DEFAULT_REFUND }],
  });
}

describe("a refund without an amount of a completed payment", () => {
  it("returns the overpaid part once; a second call without an amount is refused and records nothing", async () => {
    const { sessionId } = await paidSession(shop, "10", "12");
    const first = await refundReq(shop, sessionId, { toAddress: PAYER_NEW_ADDRESS });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data.amount).toBe("2");
    await settleWithdrawals(shop);

    const before = await countRows(db());
    // The retry (no Idempotency-Key), sent at once or as a claim: neither refunds the price.
    expectNoDefault(await refundReq(shop, sessionId, { toAddress: PAYER_NEW_ADDRESS }));
    expectNoDefault(await refundReq(shop, sessionId));
    expect(await countRows(db())).toEqual(before);
    expect((await refundsOfSession(db(), sessionId)).refunds.map((r) => r.amount)).toEqual([units("2")]);
  });

  it("of an exact payment is refused at once; an explicit amount up to the price works", async () => {
    const { sessionId } = await paidSession(shop, "3", "3");
    const before = await countRows(db());
    expectNoDefault(await refundReq(shop, sessionId, { toAddress: PAYER_NEW_ADDRESS }));
    expectNoDefault(await refundReq(shop, sessionId));
    expect(await countRows(db())).toEqual(before);

    const part = await refundReq(shop, sessionId, { amount: "1", toAddress: PAYER_NEW_ADDRESS });
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    const rest = await refundReq(shop, sessionId, { amount: "2" });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    expect(rest.body.data).toMatchObject({ amount: "2", status: "awaiting_address" });
    const beyond = await refundReq(shop, sessionId, { amount: "0.5" });
    expect(beyond.status).toBe(400);
    await settleWithdrawals(shop);
  });

  it("the dashboard's form offers the overpaid part, then nothing to prefill once it went back", async () => {
    const [user] = await db().select().from(users).where(eq(users.id, shop.merchant().userId));
    if (!user) throw new Error("the shop's merchant is missing");
    const { sessionId } = await paidSession(shop, "5", "6");
    expect((await paymentRefunds(db(), shop.merchant().userId, sessionId)).refundable).toEqual({ amount: "6", byDefault: "1" });
    await refundFromDashboard(db(), asOwner(user), sessionId, {}, `form-${sessionId}`);
    expect((await paymentRefunds(db(), shop.merchant().userId, sessionId)).refundable).toEqual({ amount: "5", byDefault: null });
    await expect(refundFromDashboard(db(), asOwner(user), sessionId, {}, `form2-${sessionId}`)).rejects.toThrow(NO_DEFAULT_REFUND);
  });
});
