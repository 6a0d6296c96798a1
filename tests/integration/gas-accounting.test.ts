import { and, eq, gt, inArray } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { DELETE as removeDomain } from "@/app/api/user/domains/[id]/route";
import { POST as addDomain } from "@/app/api/user/domains/route";
import { GET as gasUsage } from "@/app/api/user/gas/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { formatAmount } from "@/lib/base/money";
import { type ChainTransaction, chainTransactions, forwards, gasCharges, withdrawals } from "@/lib/db/schema";
import { gasSpentSince, utcDayStart } from "@/lib/domain/gas/spend";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { plansCommand } from "@/lib/ops/admin/plans";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { operatorStatus } from "@/lib/ops/health/status";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

/**
 * Abuse economics (docs/design.md §18): a free account that loops tiny withdrawals, or
 * simply takes many payments, costs the gas tank at most its plan's daily budget — and every
 * wei the tank spends is charged to the merchant it was spent for.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const RECIPIENT = "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097" as Address;
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;

let shop: Merchant;
let other: Merchant;
let usd: Address;
let tank: Address;

const withdraw = (amount: string, m = shop) =>
  call(send, {
    method: "POST",
    headers: { "x-api-key": m.apiKey },
    body: { domainId: m.domainId, tokenId: m.tokenId, toAddress: RECIPIENT, amount },
  });
const ledgerSize = async () => (await db().select({ id: chainTransactions.id }).from(chainTransactions)).length;
const withdrawalCount = async () => (await db().select({ id: withdrawals.id }).from(withdrawals)).length;
const spentToday = (m: Merchant) => gasSpentSince(db(), m.userId, utcDayStart());

async function pay(m: Merchant, amount: string) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": m.apiKey },
    body: { tokenId: m.tokenId, amount, merchantWallet: MERCHANT_WALLET },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  await chain().client.waitForTransactionReceipt({
    hash: await payTo(chain().url, usd, res.body.data.depositAddress, parseUnits(amount, 18)),
  });
  return res.body.data.sessionId as string;
}

async function settleWithdrawals() {
  for (let i = 0; i < 10; i++) {
    await chain().client.mine({ blocks: 1 });
    if ((await tendLedgerStep(db())).pending === 0) return;
  }
  throw new Error("withdrawals did not settle");
}

/** What a settled gas-tank row cost the tank, as its receipt says. */
const costOf = (row: ChainTransaction) => (row.status === "mined" ? row.value : 0n) + (row.feePaid ?? 0n);

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  tank = await fundGasTank(chain().url);
  usd = await deployTestToken(chain().url, { symbol: "USDT" });
  shop = await setUpMerchant({ contractAddress: usd, network: "bsc" });
  other = await setUpMerchant({ contractAddress: usd, network: "bsc" });
  const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(shop.domainId);
  await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, wallet, parseUnits("1000", 18)) });
});

describe("gas accounting per merchant", () => {
  it("charges each merchant every wei the tank spends for it: sweeps, batch shares and withdrawal top-ups", async () => {
    const since = new Date(Date.now() - 1000);
    const tankBefore = await chain().client.getBalance({ address: tank });
    await pay(shop, "10");
    await pay(other, "20");
    await pay(shop, "5");
    await chain().client.mine({ blocks: 1 });
    await runEngine(db(), chain().url);
    expect((await db().select().from(forwards)).every((f) => f.status === "completed")).toBe(true);
    const sent = await withdraw("3");
    expect(sent.status).toBe(201);
    await settleWithdrawals();

    const tankRows = await db()
      .select()
      .from(chainTransactions)
      .where(and(eq(chainTransactions.walletRole, "gas_tank"), gt(chainTransactions.createdAt, since)));
    expect(tankRows.every((r) => r.status === "mined")).toBe(true);
    // The tank's balance moved by exactly what its rows cost (value + fee of each receipt)...
    expect(tankBefore - (await chain().client.getBalance({ address: tank }))).toBe(tankRows.reduce((sum, r) => sum + costOf(r), 0n));
    // ...and every row but the operator's own (the sweep contracts' deployment) is charged in full.
    const charges = await db()
      .select()
      .from(gasCharges)
      .where(
        inArray(
          gasCharges.chainTxId,
          tankRows.map((r) => r.id),
        ),
      );
    for (const row of tankRows) {
      const mine = charges.filter((c) => c.chainTxId === row.id);
      if (row.kind === "deploy") expect(mine).toEqual([]);
      else expect(mine.reduce((sum, c) => sum + c.units, 0)).toBe(mine[0]!.totalUnits);
    }
    const charged = tankRows.filter((r) => r.kind !== "deploy").reduce((sum, r) => sum + costOf(r), 0n);
    const total = (await spentToday(shop)) + (await spentToday(other));
    // Shares of a batch are rounded down to the wei: at most one wei per merchant and row is lost.
    expect(total).toBeLessThanOrEqual(charged);
    expect(total).toBeGreaterThanOrEqual(charged - BigInt(charges.length));
    // The shop paid for two sweeps and a withdrawal, the other merchant for one sweep.
    expect(await spentToday(shop)).toBeGreaterThan(await spentToday(other));
    expect(await spentToday(other)).toBeGreaterThan(0n);
    const shopRows = new Set(charges.filter((c) => c.userId === shop.userId).map((c) => c.chainTxId));
    expect(tankRows.filter((r) => shopRows.has(r.id)).map((r) => r.kind)).toContain("wallet_gas");

    // The merchant sees it per day and kind; the operator sees who costs what.

    const usage = await call(gasUsage, { headers: shop.auth });
    expect(usage.status).toBe(200);
    const today = usage.body.data.days.at(-1);
    expect(today.day).toBe(new Date().toISOString().slice(0, 10));
    expect(BigInt(parseUnits(today.total, 18))).toBe(await spentToday(shop));
    expect(Number(today.withdrawal)).toBeGreaterThan(0);
    expect(Number(today.sweep) + Number(today.batch)).toBeGreaterThan(0);
    expect(usage.body.data.today).toMatchObject({ withdrawals: 1, withdrawalLimit: 100, plan: "Starter" });
    const status = (await operatorStatus(db())).lines.join("\n");
    expect(status).toContain("gas spent for merchants today");
    expect(status).toMatch(new RegExp(`${shop.email}\\s+0\\.\\d+ BNB`));
  });

  it("refuses dust below the token's minimum withdrawal, recording and spending nothing", async () => {
    const [ledger, sentBefore, tankNonce] = [
      await ledgerSize(),
      await withdrawalCount(),
      await chain().client.getTransactionCount({ address: tank }),
    ];
    const dust = await withdraw("0.000000000000000001");
    expect(dust.status).toBe(400);
    expect(dust.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "amount", message: "must be at least 0.01 USDT" }],
    });
    expect((await withdraw("0.0099")).status).toBe(400);

    // The operator sets its own minimum.
    await tokensCommand(db(), ["allow", "bsc", usd, "--min-withdrawal", "5"]);
    const below = await withdraw("4.99");
    expect(below.body.error.message).toContain("at least 5 USDT");
    expect([await ledgerSize(), await withdrawalCount(), await chain().client.getTransactionCount({ address: tank })]).toEqual([
      ledger,
      sentBefore,
      tankNonce,
    ]);
    expect((await withdraw("5")).status).toBe(201);
    await settleWithdrawals();
    await tokensCommand(db(), ["allow", "bsc", usd, "--min-withdrawal", "0.01"]);
  });

  it("refuses to withdraw a token the operator disallowed, and sends again once it is allowed", async () => {
    const ledger = await ledgerSize();
    await tokensCommand(db(), ["disallow", "bsc", usd]);
    const refused = await withdraw("1");
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "VALIDATION_ERROR", message: expect.stringContaining("disallowed") });
    expect(await ledgerSize()).toBe(ledger);
    await tokensCommand(db(), ["allow", "bsc", usd]);
    expect((await withdraw("1")).status).toBe(201);
    await settleWithdrawals();
  });

  it("stops withdrawals at the plan's daily gas budget with 429 and Retry-After, and still sweeps incoming payments", async () => {
    await plansCommand(db(), ["set", "starter", "--gas-budget", "0"]);
    const [ledger, sentBefore] = [await ledgerSize(), await withdrawalCount()];
    const refused = await withdraw("1");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("RATE_LIMITED");
    expect(refused.body.error.message).toMatch(/daily gas budget of 0 BNB; incoming payments are still forwarded/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    const toMidnight = (utcDayStart().getTime() + 86_400_000 - Date.now()) / 1000;
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(retryAfter - toMidnight)).toBeLessThan(5);
    expect([await ledgerSize(), await withdrawalCount()]).toEqual([ledger, sentBefore]);

    // Over budget, the merchant's incoming payments are swept all the same, and charged.
    const spent = await spentToday(shop);
    const sessionId = await pay(shop, "7");
    await chain().client.mine({ blocks: 1 });
    await runEngine(db(), chain().url);
    const [forward] = await db().select().from(forwards).where(eq(forwards.sessionId, sessionId));
    expect(forward!.status).toBe("completed");
    expect(await spentToday(shop)).toBeGreaterThan(spent);

    // A budget just above today's spend lets one more through; the spend it causes closes the door again.
    const current = await spentToday(shop);
    await plansCommand(db(), ["set", "starter", "--gas-budget", formatAmount(current + 1n, 18)]);
    const plan = (await plansCommand(db(), ["list"])).find((l) => l.startsWith("starter"))!;
    const budget = parseUnits(plan.match(/gas\/day ([\d.]+) BNB/)![1]!, 18);
    expect(budget).toBeGreaterThan(current);
    expect((await withdraw("1")).status).toBe(201);
    await settleWithdrawals();
    expect(await spentToday(shop)).toBeGreaterThanOrEqual(budget);
    expect((await withdraw("1")).status).toBe(429);
    // The other merchant of the same plan pays for less, and may still withdraw nothing it does not hold:
    // its refusal is about its own budget, not the shop's.
    expect(await spentToday(other)).toBeLessThan(budget);

    await plansCommand(db(), ["set", "starter", "--gas-budget", "unlimited"]);
    expect((await withdraw("1")).status).toBe(201);
    await settleWithdrawals();
  });

  it("caps withdrawal requests per day, also for a burst of concurrent requests", async () => {
    const today = (await db().select().from(withdrawals).where(eq(withdrawals.userId, shop.userId))).length;
    await plansCommand(db(), ["set", "starter", "--daily-withdrawals", String(today + 2)]);
    const burst = await Promise.all(Array.from({ length: 6 }, () => withdraw("1")));
    expect(burst.map((r) => r.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
    const refused = burst.find((r) => r.status === 429)!;
    expect(refused.body.error.message).toContain(`allows ${today + 2} withdrawals a day`);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await db().select().from(withdrawals).where(eq(withdrawals.userId, shop.userId))).length).toBe(today + 2);
    await settleWithdrawals();
    await plansCommand(db(), ["set", "starter", "--daily-withdrawals", "100"]);
  });

  it("caps domains per merchant, also for concurrent requests; a deleted domain frees its place", async () => {
    await plansCommand(db(), ["set", "starter", "--max-domains", "3"]);
    const adds = await Promise.all(
      [1, 2, 3, 4].map((i) => call(addDomain, { method: "POST", headers: other.auth, body: { domain: `https://shop${i}.example.com` } })),
    );
    expect(adds.map((r) => r.status).sort()).toEqual([201, 201, 400, 400]);
    expect(adds.find((r) => r.status === 400)!.body.error.message).toContain("allows 3 domains and you have 3");
    const added = adds.find((r) => r.status === 201)!.body.data.domainId;
    expect((await call(removeDomain, { method: "DELETE", headers: other.auth, params: { id: String(added) } })).status).toBe(200);
    expect((await call(addDomain, { method: "POST", headers: other.auth, body: { domain: "https://shop9.example.com" } })).status).toBe(
      201,
    );
    await plansCommand(db(), ["set", "starter", "--max-domains", "20"]);
  });

  it("refuses bad operator input for plans without changing them", async () => {
    const before = await plansCommand(db(), ["list"]);
    for (const args of [
      ["set", "starter", "--gas-budget", "-1"],
      ["set", "starter", "--max-domains", "2.5"],
      ["set", "starter"],
      ["set", "nope", "--max-domains", "2"],
      ["set"],
    ]) {
      await expect(plansCommand(db(), args)).rejects.toMatchObject({ code: expect.stringMatching(/VALIDATION_ERROR|NOT_FOUND/) });
    }
    expect(await plansCommand(db(), ["list"])).toEqual(before);
  });
});
