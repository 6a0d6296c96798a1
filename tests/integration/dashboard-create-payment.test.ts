/**
 * The dashboard's one-off payment and a payment's webhook deliveries on its page
 * (§6): a session made by the merchant with no API key, counted against the plan like any
 * other; every refusal in the merchant's words, tied to its field, and leaving nothing behind.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { AppError } from "@/lib/base/errors";
import { paymentSessions, plans, sessionUsage, subscriptions } from "@/lib/db/schema";
import { getPlan, usagePeriod } from "@/lib/domain/plans/current-plan";
import { createDashboardPayment, dashboardPaymentSchema } from "@/lib/web/dashboard/payments/create-payment";
import { cancelUserPayment, getUserPayment } from "@/lib/web/dashboard/payments/payment-detail";
import { deliveriesOfSession } from "@/lib/web/dashboard/payments/payment-webhooks";
import { listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { type Merchant, setUpMerchant, signUp } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });

let merchant: Merchant;
let other: Merchant;
let token: string;

const form = (input: Record<string, unknown>) => dashboardPaymentSchema.parse(input);
const sessionsOf = async (userId: number) =>
  (await db().select({ id: paymentSessions.id }).from(paymentSessions).where(eq(paymentSessions.userId, userId))).length;
const usedThisMonth = async (userId: number) => (await getPlan(db(), userId)).usage.sessionsCreated;

/** The AppError a refused create throws. */
async function refusal(userId: number, input: Record<string, unknown>): Promise<AppError> {
  const error = await createDashboardPayment(db(), userId, form(input)).catch((e: unknown) => e);
  expect(error, JSON.stringify(input)).toBeInstanceOf(AppError);
  return error as AppError;
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", WEBHOOK_ALLOW_PRIVATE: "true" });
  token = await deployTestToken(chain().url);
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
  other = await setUpMerchant({ contractAddress: token, network: "bsc", domain: "https://other.example.com" });
  await call(patchDomain, {
    method: "PATCH",
    headers: merchant.auth,
    params: { id: String(merchant.domainId) },
    body: { webhookUrl: "http://127.0.0.1:9/hooks" },
  });
});

describe("a payment created on the dashboard", () => {
  it("is a session of no API key, counted against the plan, listed and shown to its merchant", async () => {
    const [sessionsBefore, usedBefore] = [await sessionsOf(merchant.userId), await usedThisMonth(merchant.userId)];
    const made = await createDashboardPayment(
      db(),
      merchant.userId,
      form({ tokenId: String(merchant.tokenId), amount: " 12.5 ", description: "Invoice 12", orderId: "INV-12", domainId: "" }),
    );
    expect(made).toMatchObject({ amount: "12.5", token: "TST" });
    expect(made.checkoutUrl).toContain(`/pay/${made.sessionId}`);
    const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, made.sessionId));
    expect(row).toMatchObject({ apiKeyId: null, userId: merchant.userId, domainId: merchant.domainId, orderId: "INV-12" });
    expect(await sessionsOf(merchant.userId)).toBe(sessionsBefore + 1);
    expect(await usedThisMonth(merchant.userId)).toBe(usedBefore + 1);
    expect(await getUserPayment(db(), merchant.userId, made.sessionId)).toMatchObject({
      createdByApiKey: false,
      description: "Invoice 12",
      status: "pending",
    });
    const listed = await listUserPayments(db(), merchant.userId, paymentFiltersSchema.parse({ q: "INV-12" }));
    expect(listed.items.map((p) => p.sessionId)).toEqual([made.sessionId]);
  });

  it("refuses bad input field by field, in plain words, and writes nothing", async () => {
    const [sessionsBefore, usedBefore] = [await sessionsOf(merchant.userId), await usedThisMonth(merchant.userId)];
    const base = { tokenId: String(merchant.tokenId), amount: "1" };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ amount: "abc" }, "amount", /^Enter an amount such as 10\.5/],
      [{ amount: "1,5" }, "amount", /^Enter an amount such as 10\.5/],
      [{ amount: "-1" }, "amount", /^Enter an amount such as 10\.5/],
      [{ amount: "0" }, "amount", /^The amount must be more than 0\.$/],
      [{ amount: `1.${"0".repeat(18)}1` }, "amount", /^TST has 18 decimals: use at most 18 digits after the dot\.$/],
      [{ tokenId: String(other.tokenId) }, "tokenId", /^Choose one of your registered tokens\.$/],
      [{ tokenId: "999999" }, "tokenId", /^Choose one of your registered tokens\.$/],
      [{ domainId: String(other.domainId) }, "domainId", /^Choose one of your domains\.$/],
      [{ description: "x".repeat(501) }, "description", /^Description must be at most 500 characters\.$/],
      [{ orderId: "A\nB" }, "orderId", /^Order reference must be one line\.$/],
      [{ orderId: "A\u202eB" }, "orderId", /^Order reference must not contain bidirectional control characters/],
    ];
    for (const [extra, path, message] of cases) {
      const error = await refusal(merchant.userId, { ...base, ...extra });
      expect(error.code, JSON.stringify(extra)).toBe("VALIDATION_ERROR");
      expect(error.details?.[0]?.path, JSON.stringify(extra)).toBe(path);
      expect(error.message, JSON.stringify(extra)).toMatch(message);
      expect(error.message).not.toMatch(/tokenId|NO_PACKAGE|POST \//);
    }
    expect(await sessionsOf(merchant.userId)).toBe(sessionsBefore);
    expect(await usedThisMonth(merchant.userId)).toBe(usedBefore);
  });

  it("asks for the required fields before anything else", () => {
    const parsed = dashboardPaymentSchema.safeParse({ tokenId: "", amount: "  " });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["tokenId", "Choose a token."],
      ["amount", "Enter an amount."],
    ]);
  });

  it("says what to set up first: a plan, a domain, a month's quota", async () => {
    const fresh = await signUp();
    const registered = await call(registerToken, { method: "POST", headers: fresh.auth, body: { contractAddress: token, network: "bsc" } });
    expect(registered.status).toBeLessThan(300);
    const tokenId = String(registered.body.data.tokenId);

    const noDomain = await refusal(fresh.userId, { tokenId, amount: "1" });
    expect([noDomain.code, noDomain.message]).toEqual(["DOMAIN_NOT_WHITELISTED", "Add your shop's domain before creating payments."]);
    expect(await sessionsOf(fresh.userId)).toBe(0);

    const withDomain = await setUpMerchant({ contractAddress: token, network: "bsc", domain: "https://noplan.example.com" });
    await db().delete(sessionUsage).where(eq(sessionUsage.userId, withDomain.userId));
    await db().delete(subscriptions).where(eq(subscriptions.userId, withDomain.userId));
    const noPlan = await refusal(withDomain.userId, { tokenId: String(withDomain.tokenId), amount: "1" });
    expect([noPlan.code, noPlan.message]).toEqual(["NO_PACKAGE", "Choose a plan before creating payments."]);

    const [starter] = await db().select().from(plans).where(eq(plans.id, "starter"));
    const quota = starter?.monthlySessionQuota ?? 0;
    expect(quota).toBeGreaterThan(0);
    await db()
      .insert(sessionUsage)
      .values({ userId: other.userId, period: usagePeriod(), sessions: quota })
      .onConflictDoUpdate({
        target: [sessionUsage.userId, sessionUsage.period],
        set: { sessions: quota },
      });
    const before = await sessionsOf(other.userId);
    const usedUp = await refusal(other.userId, { tokenId: String(other.tokenId), amount: "1" });
    expect(usedUp.code).toBe("NO_PACKAGE");
    expect(usedUp.message).toMatch(/^This month's payments on your plan are used up/);
    expect(await sessionsOf(other.userId)).toBe(before);
    expect(await usedThisMonth(other.userId)).toBe(quota);
  });
});

describe("a payment's webhook deliveries", () => {
  it("lists the events about this session only, with where they went, and only to its merchant", async () => {
    const first = await createDashboardPayment(db(), merchant.userId, form({ tokenId: String(merchant.tokenId), amount: "3" }));
    const second = await createDashboardPayment(db(), merchant.userId, form({ tokenId: String(merchant.tokenId), amount: "4" }));
    await cancelUserPayment(db(), merchant.userId, first.sessionId);
    await cancelUserPayment(db(), merchant.userId, second.sessionId);
    const session = async (id: string) => {
      const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, id));
      if (!row) throw new Error("no session");
      return row;
    };

    const mine = await deliveriesOfSession(db(), merchant.userId, await session(first.sessionId));
    expect(mine.map((d) => [d.eventType, d.endpointUrl, d.domain])).toEqual([
      ["payment.cancelled", "http://127.0.0.1:9/hooks", "https://shop.example.com"],
    ]);
    expect(mine[0]?.payload).toMatchObject({ data: { sessionId: first.sessionId } });
    expect(await deliveriesOfSession(db(), other.userId, await session(first.sessionId))).toEqual([]);
  });
});
