/**
 * The dashboard's payments list around refunds and links: filtered by payment link (scoped to the user: a
 * link of another merchant shows nothing), and each row's refunds — sent back, and still under
 * way — read in one grouped query (an expired claim or a cancelled refund counts as nothing).
 */

import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { asOwner } from "@/lib/accounts/members/principal";
import { paymentSessions, refunds, users } from "@/lib/db/schema";
import { createPaymentLink } from "@/lib/domain/payment-links/manage-links";
import { payPaymentLink } from "@/lib/domain/payment-links/pay-link";
import { paymentRefunds, refundFromDashboard } from "@/lib/domain/refunds/dashboard-refunds";
import { listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const filters = (input: Record<string, unknown> = {}) => paymentFiltersSchema.parse(input);
const ids = (rows: { sessionId: string }[]) => rows.map((r) => r.sessionId).sort();

let a: Merchant;
let b: Merchant;
let token: Address;

async function paid(sessionId: string, depositAddress: Address, amount: string) {
  const hash = await payTo(chain().url, token, depositAddress, parseUnits(amount, 18));
  await chain().client.waitForTransactionReceipt({ hash });
  await runEngine(db(), chain().url);
  const [session] = await db().select({ status: paymentSessions.status }).from(paymentSessions).where(eq(paymentSessions.id, sessionId));
  expect(session?.status).toBe("completed");
}

async function apiSession(m: Merchant, amount: string) {
  const res = await call(create, { method: "POST", headers: { "x-api-key": m.apiKey }, body: { tokenId: m.tokenId, amount } });
  expect(res.status).toBe(201);
  return res.body.data as { sessionId: string; depositAddress: Address };
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  await fundGasTank(chain().url);
  token = await deployTestToken(chain().url, { symbol: "RFL" });
  a = await setUpMerchant({ contractAddress: token, network: "bsc" });
  b = await setUpMerchant({ contractAddress: token, network: "bsc" });
});

describe("the payments list, by payment link", () => {
  it("shows the link's payments to its merchant only; another merchant's link id shows nothing", async () => {
    // The acting member is each account's owner (a link's domain change would ask their code).
    const ownerOf = async (m: Merchant) => asOwner((await db().select().from(users).where(eq(users.id, m.userId)))[0]!);
    const coffee = await createPaymentLink(db(), await ownerOf(a), { title: "Coffee beans", tokenId: a.tokenId, amount: "3" });
    const tips = await createPaymentLink(db(), await ownerOf(a), { title: "Tips", tokenId: a.tokenId, minAmount: "1" });
    const theirs = await createPaymentLink(db(), await ownerOf(b), { title: "Their link", tokenId: b.tokenId, amount: "4" });
    const viaCoffee = await payPaymentLink(db(), coffee.slug, {});
    await payPaymentLink(db(), tips.slug, { amount: "2" });
    const viaTheirs = await payPaymentLink(db(), theirs.slug, {});
    await apiSession(a, "5");

    const byCoffee = await listUserPayments(db(), a.userId, filters({ linkId: String(coffee.linkId) }));
    expect(ids(byCoffee.items)).toEqual([viaCoffee.sessionId]);
    expect(byCoffee).toMatchObject({ newer: null, older: null });
    // The Order column falls back to the session's description: the link's title.
    expect(byCoffee.items[0]).toMatchObject({ paymentLinkId: coffee.linkId, orderId: null, description: "Coffee beans" });

    expect((await listUserPayments(db(), a.userId, filters({ linkId: String(theirs.linkId) }))).items).toEqual([]);
    expect((await listUserPayments(db(), b.userId, filters({ linkId: String(coffee.linkId) }))).items).toEqual([]);
    expect(ids((await listUserPayments(db(), b.userId, filters({ linkId: String(theirs.linkId) }))).items)).toEqual([viaTheirs.sessionId]);
    // Combined with the other filters; every payment of the user without it.
    expect((await listUserPayments(db(), a.userId, filters({ linkId: String(coffee.linkId), status: "completed" }))).items).toEqual([]);
    expect((await listUserPayments(db(), a.userId, filters())).items).toHaveLength(3);
    expect(paymentFiltersSchema.safeParse({ linkId: "abc" }).success).toBe(false);
    expect(paymentFiltersSchema.parse({ linkId: "" }).linkId).toBeUndefined();
  });
});

describe("the payments list, with refunds", () => {
  it("sums each listed payment's refunds: sent back, and still under way", async () => {
    const overpaid = await apiSession(a, "10");
    await paid(overpaid.sessionId, overpaid.depositAddress, "12");
    const untouched = await apiSession(a, "6");
    await paid(untouched.sessionId, untouched.depositAddress, "6");

    const [user] = await db().select().from(users).where(eq(users.id, a.userId));
    if (!user) throw new Error("merchant a not found");
    expect((await paymentRefunds(db(), a.userId, overpaid.sessionId)).refundable).toEqual({ amount: "12", byDefault: "2" });
    // A claim made as on the dashboard: waiting for the payer's address.
    const claim = await refundFromDashboard(db(), asOwner(user), overpaid.sessionId, { amount: "0.5" }, randomUUID());
    expect(claim).toMatchObject({ status: "awaiting_address", amount: "0.5", toAddress: null });
    // And the other states, as the engine leaves them.
    const base = { sessionId: overpaid.sessionId, userId: a.userId, claimExpiresAt: new Date(Date.now() + 86_400_000) };
    await db()
      .insert(refunds)
      .values([
        { ...base, id: randomUUID(), amount: parseUnits("1.5", 18), status: "completed", completedAt: new Date() },
        { ...base, id: randomUUID(), amount: parseUnits("0.25", 18), status: "sending" },
        {
          ...base,
          id: randomUUID(),
          amount: parseUnits("0.2", 18),
          status: "awaiting_funds",
          toAddress: "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097",
        },
        { ...base, id: randomUUID(), amount: parseUnits("0.75", 18), status: "cancelled" },
        { ...base, id: randomUUID(), amount: parseUnits("0.1", 18), status: "failed" },
        { ...base, id: randomUUID(), amount: parseUnits("3", 18), status: "awaiting_address", claimExpiresAt: new Date(Date.now() - 1000) },
      ]);

    const rows = (await listUserPayments(db(), a.userId, filters())).items;
    const row = (id: string) => rows.find((r) => r.sessionId === id);
    // Under way: the claim (0.5), the one sending (0.25) and the one waiting for the wallet's funds (0.2).
    expect(row(overpaid.sessionId)?.refunds).toEqual({ refunded: "1.5", pending: "0.95" });
    expect(row(untouched.sessionId)?.refunds).toEqual({ refunded: null, pending: null });
    // The other merchant's list knows nothing of them.
    expect(
      (await listUserPayments(db(), b.userId, filters())).items.every((r) => r.refunds.refunded === null && r.refunds.pending === null),
    ).toBe(true);
    // The payment's page reads the same refunds (the expired claim is cancelled on read).
    const page = await paymentRefunds(db(), a.userId, overpaid.sessionId);
    expect(page.refunds.map((r) => r.status).sort()).toEqual([
      "awaiting_address",
      "awaiting_funds",
      "cancelled",
      "cancelled",
      "completed",
      "failed",
      "sending",
    ]);
    // 2.45 went back or waits (more than the 2 overpaid): the rest of the price only with a typed amount.
    expect(page.refundable).toEqual({ amount: "9.55", byDefault: null });
  });
});
