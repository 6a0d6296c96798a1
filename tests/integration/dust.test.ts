/**
 * Dust: a catalogue token has a minimum payment (the operator's --min-payment,
 * else the minimum forward), enforced on payment/create, the dashboard's New payment, link prices
 * and a payer's chosen amount; a completion sweep below the minimum forward — which a payer can
 * trigger — waits while the merchant is over its daily gas budget, and is swept once it allows.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as pay } from "@/app/api/links/[slug]/pay/route";
import { GET as linkPage } from "@/app/api/links/[slug]/route";
import { POST as choosePlan } from "@/app/api/user/package/route";
import { PATCH as patchLink } from "@/app/api/user/payment-links/[id]/route";
import { POST as createLink } from "@/app/api/user/payment-links/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { deposits, forwards, paymentLinks, paymentSessions, plans } from "@/lib/db/schema";
import { dustSweepCost } from "@/lib/domain/gas/dust-budget";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { createDashboardPayment } from "@/lib/web/dashboard/payments/create-payment";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
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
const ONE_WEI = "0.000000000000000001";

let merchant: Merchant;
let token: Address;
const sessionCount = async () => (await db().select({ id: paymentSessions.id }).from(paymentSessions)).length;
const createReq = (amount: string, who = merchant) =>
  call(create, { method: "POST", headers: { "x-api-key": who.apiKey }, body: { tokenId: who.tokenId, amount } });
const allow = (...flags: string[]) => tokensCommand(db(), ["allow", "bsc", token, ...flags]);

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  await fundGasTank(chain().url);
  token = await deployTestToken(chain().url, { symbol: "DST" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
});
beforeEach(async () => {
  await resetRateLimits();
  await allow("--min-forward", "0.5", "--min-payment", "0.5");
});

describe("the minimum payment", () => {
  it("refuses a 1-wei session on payment/create, naming amount and the minimum, and writes nothing", async () => {
    const before = await sessionCount();
    const refused = await createReq(ONE_WEI);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "amount must be at least 0.5 DST: the smallest payment this gateway accepts in DST",
      details: [{ path: "amount" }],
    });
    expect((await createReq("0.49")).status).toBe(400);
    expect(await sessionCount()).toBe(before);
    expect((await createReq("0.5")).status).toBe(201);
  });

  it("is the operator's --min-payment, else the minimum forward; `tokens list` shows it", async () => {
    await allow("--min-payment", "0.1");
    expect((await createReq("0.1")).status).toBe(201);
    expect((await createReq("0.09")).status).toBe(400);
    await db()
      .update((await import("@/lib/db/schema")).tokenCatalogue)
      .set({ minPaymentAmount: null });
    await allow("--min-forward", "2");
    expect((await createReq("1.99")).body.error.message).toContain("at least 2 DST");
    const [line] = await tokensCommand(db(), ["list", "bsc"]).then((lines) => lines.filter((l) => l.includes(token)));
    expect(line).toContain("min payment 2 (default)");
  });

  it("refuses dust in the dashboard's New payment, in the merchant's words", async () => {
    await expect(createDashboardPayment(db(), merchant.userId, { tokenId: merchant.tokenId, amount: ONE_WEI })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "amount", message: "Enter at least 0.5 DST: the smallest payment this gateway takes in it." }],
    });
  });

  it("refuses a link priced below it (fixed or minAmount, create and edit) and a payer's 1-wei amount on a link without a floor", async () => {
    const newLink = (body: Record<string, unknown>) =>
      call(createLink, { method: "POST", headers: merchant.auth, body: { tokenId: merchant.tokenId, title: "Tips", ...body } });
    for (const body of [{ amount: ONE_WEI }, { minAmount: ONE_WEI }]) {
      const refused = await newLink(body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0].path).toBe(Object.keys(body)[0]);
    }
    const link = (await newLink({ minAmount: "1" })).body.data;
    const edit = await call(patchLink, {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: String(link.linkId) },
      body: { minAmount: ONE_WEI },
    });
    expect(edit.status).toBe(400);
    // A link saved before the rule (or before the operator raised the minimum) has no floor of its own.
    await db().update(paymentLinks).set({ minAmount: 1n }).where(eq(paymentLinks.id, link.linkId));
    const before = await sessionCount();
    const dust = await call(pay, { method: "POST", params: { slug: link.slug }, body: { amount: ONE_WEI } });
    expect(dust.status).toBe(400);
    expect(dust.body.error.message).toContain("at least 0.5 DST");
    expect(await sessionCount()).toBe(before);
    // The page shows the floor that holds: the token's minimum payment.
    expect((await call(linkPage, { params: { slug: link.slug } })).body.data.minAmount).toBe("0.5");
    expect((await call(pay, { method: "POST", params: { slug: link.slug }, body: { amount: "0.5" } })).status).toBe(201);
  });
});

describe("sweeps a payer can trigger below the minimum forward", () => {
  it("wait while the merchant is over its daily gas budget (the tank pays nothing), and are swept once it allows", async () => {
    // The operator lets sessions go below the minimum forward: their completing sweep is dust.
    await allow("--min-forward", "5", "--min-payment", "1");
    const broke = await setUpMerchant({ contractAddress: token, network: "bsc", domain: "https://broke.example.com" });
    await db().insert(plans).values({ id: "no-gas", name: "No gas", monthlySessionQuota: 100, dailyGasBudget: 0n, selfServe: true });
    await call(choosePlan, { method: "POST", headers: broke.auth, body: { plan: "no-gas" } });
    const session = (await createReq("1", broke)).body.data;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, session.depositAddress, parseUnits("1", 18)) });
    await runEngine(db(), chain().url);

    const [paid] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, session.sessionId));
    expect(paid!.status).toBe("completed");
    const swept = () => db().select().from(forwards).where(eq(forwards.sessionId, session.sessionId));
    expect(await swept()).toEqual([]);
    const [waiting] = await db().select().from(deposits).where(eq(deposits.sessionId, session.sessionId));
    expect(waiting).toMatchObject({ forwardId: null, needsPlanning: true });
    expect(waiting!.planAfter!.getTime()).toBeGreaterThan(Date.now());

    // The next day, with budget: the held dust is swept.
    await db().update(plans).set({ dailyGasBudget: null }).where(eq(plans.id, "no-gas"));
    await db()
      .update(deposits)
      .set({ planAfter: new Date(Date.now() - 1000) })
      .where(and(eq(deposits.sessionId, session.sessionId)));
    await runEngine(db(), chain().url);
    expect((await swept()).map((f) => [f.status, f.amount])).toEqual([["completed", parseUnits("1", 18)]]);
  });

  it("take each sweep's cost from the budget within one planning round: budget for 2, 5 waiting → 2 swept, 3 held", async () => {
    await allow("--min-forward", "5", "--min-payment", "1");
    const tight = await setUpMerchant({ contractAddress: token, network: "bsc", domain: "https://tight.example.com" });
    await db()
      .insert(plans)
      .values({ id: "two-sweeps", name: "Two sweeps", monthlySessionQuota: 100, dailyGasBudget: 0n, selfServe: true });
    await call(choosePlan, { method: "POST", headers: tight.auth, body: { plan: "two-sweeps" } });
    const sessions = [];
    for (let i = 0; i < 5; i++) sessions.push((await createReq("1", tight)).body.data);
    for (const s of sessions)
      await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, s.depositAddress, parseUnits("1", 18)) });
    // Every payment confirmed before the engine runs: all five sweeps come up in one planning round.
    await chain().client.mine({ blocks: 1 });
    // Budget for two and a half sweeps at the price the planner reads (anvil's falls block by block).
    // Nothing spent today yet: "spent ≥ budget" alone would let the whole round through.
    const cost = await dustSweepCost("bsc");
    await db()
      .update(plans)
      .set({ dailyGasBudget: 2n * cost + cost / 2n })
      .where(eq(plans.id, "two-sweeps"));
    await runEngine(db(), chain().url);

    const ids = sessions.map((s) => s.sessionId as string);
    const swept = () => db().select().from(forwards).where(inArray(forwards.sessionId, ids));
    expect((await swept()).map((f) => f.status)).toEqual(["completed", "completed"]);
    const held = await db()
      .select()
      .from(deposits)
      .where(and(inArray(deposits.sessionId, ids), isNull(deposits.forwardId)));
    expect(held).toHaveLength(3);
    for (const d of held) {
      expect(d.needsPlanning).toBe(true);
      expect(d.planAfter!.getTime()).toBeGreaterThan(Date.now());
    }

    // The next day, with budget again: the held sweeps go out.
    await db().update(plans).set({ dailyGasBudget: null }).where(eq(plans.id, "two-sweeps"));
    await db()
      .update(deposits)
      .set({ planAfter: new Date(Date.now() - 1000) })
      .where(inArray(deposits.sessionId, ids));
    await runEngine(db(), chain().url);
    expect((await swept()).map((f) => [f.status, f.amount])).toEqual(Array(5).fill(["completed", parseUnits("1", 18)]));
  });
});
