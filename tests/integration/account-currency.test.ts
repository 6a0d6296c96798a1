/**
 * The account's currency (docs/fiat.md): the merchant sets it (bad input
 * refused, nothing changed), and the overview's figures are in it, each payment valued from what is
 * recorded — a fiat-priced payment at its locked rate (kept in the day totals as it completes), a USD
 * stablecoin 1:1 USD, any other token not valued — and another currency converted at today's rate
 * of the chain's feeds, or shown apart when there is none.
 */

import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { type Address, getAddress } from "viem";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as getSettings, PATCH as patchSettings } from "@/app/api/user/settings/route";
import { currencyFeeds, type PaymentSession, paymentDayTotals, paymentSessions, tokenCatalogue, tokens, users } from "@/lib/db/schema";
import { tallySessionMoves } from "@/lib/domain/payments/session-tallies";
import { accountVolume, clearRateCache, todaysConversion } from "@/lib/web/dashboard/account/account-value";
import { listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { deployTestFeed, setTestFeed } from "../helpers/feeds";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const UNIT = 10n ** 18n;

let merchant: Merchant;
let stable: Address;
let otherTokenId: number;
let eurFeed: Address;
let depositIndex = 900_000;

const deployFeed = (pair: string, answer: bigint) => deployTestFeed(chain().url, pair, answer);
const setFeed = (feed: Address, answer: bigint, updatedAt = 0n) => setTestFeed(chain().url, feed, answer, updatedAt);

/** A completed session written as the engine writes one (its day totals moved by the same tally). */
async function completed(input: {
  tokenId: number;
  amount: bigint;
  received: bigint;
  currency?: string;
  fiatAmount?: bigint;
  rate?: string;
  status?: "completed" | "pending";
}): Promise<PaymentSession> {
  const i = ++depositIndex;
  const now = new Date();
  const [row] = await db()
    .insert(paymentSessions)
    .values({
      id: randomUUID(),
      userId: merchant.userId,
      tokenId: input.tokenId,
      network: "bsc",
      chainId: 56,
      depositIndex: i,
      depositAddress: `0x${i.toString(16).padStart(40, "0")}`,
      depositTopic: `0x${i.toString(16).padStart(64, "0")}`,
      amount: input.amount,
      receivedAmount: input.received,
      forwardTo: "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199",
      status: input.status ?? "completed",
      expiresAt: new Date(now.getTime() + 3_600_000),
      completedAt: (input.status ?? "completed") === "completed" ? now : null,
      currency: input.currency ?? null,
      fiatAmount: input.fiatAmount ?? null,
      rate: input.rate ?? null,
    })
    .returning();
  await tallySessionMoves(db(), [{ before: null, after: row! }]);
  return row!;
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  stable = await deployTestToken(chain().url, { symbol: "USDX" });
  merchant = await setUpMerchant({ contractAddress: stable, network: "bsc" });
  // The operator's catalogue calls it a USD stablecoin: token-priced payments in it are worth 1:1 USD.
  await db()
    .update(tokenCatalogue)
    .set({ usdPegged: true })
    .where(and(eq(tokenCatalogue.network, "bsc"), eq(tokenCatalogue.contractAddress, stable)));
  // A token without a peg (as BNB): received, but not valued.
  const [other] = await db()
    .insert(tokens)
    .values({
      userId: merchant.userId,
      network: "bsc",
      contractAddress: getAddress(`0x${"ab".repeat(20)}`),
      symbol: "VOL",
      name: "Volatile",
      decimals: 18,
    })
    .returning();
  otherTokenId = other!.id;
  eurFeed = await deployFeed("EUR / USD", 108_000_000n); // 1 EUR = 1.08 USD
  await db()
    .insert(currencyFeeds)
    .values({ network: "bsc", currency: "EUR", usdFeed: eurFeed, heartbeatSeconds: 3600 })
    .onConflictDoUpdate({ target: [currencyFeeds.network, currencyFeeds.currency], set: { usdFeed: eurFeed, heartbeatSeconds: 3600 } });

  // 25.00 USD paid exactly; 10.00 USD overpaid by 10 % (worth 11.00 at its locked rate); 20.00 EUR paid exactly;
  // 12.5 USDX token-priced (12.50 USD); 3 VOL token-priced (not valued); a pending 99 USD with nothing received.
  await completed({
    tokenId: merchant.tokenId,
    amount: 25n * UNIT,
    received: 25n * UNIT,
    currency: "USD",
    fiatAmount: 2500n,
    rate: "1.00000000",
  });
  await completed({
    tokenId: merchant.tokenId,
    amount: 10n * UNIT,
    received: 11n * UNIT,
    currency: "USD",
    fiatAmount: 1000n,
    rate: "1.00000000",
  });
  await completed({
    tokenId: merchant.tokenId,
    amount: (216n * UNIT) / 10n,
    received: (216n * UNIT) / 10n,
    currency: "EUR",
    fiatAmount: 2000n,
    rate: "0.92592592",
  });
  await completed({ tokenId: merchant.tokenId, amount: (125n * UNIT) / 10n, received: (125n * UNIT) / 10n });
  await completed({ tokenId: otherTokenId, amount: 3n * UNIT, received: 3n * UNIT });
  await completed({
    tokenId: merchant.tokenId,
    amount: 99n * UNIT,
    received: 0n,
    currency: "USD",
    fiatAmount: 9900n,
    rate: "1.00000000",
    status: "pending",
  });
});

beforeEach(() => clearRateCache());

describe("the account currency", () => {
  it("is USD until set; PATCH /api/user/settings sets it, and refuses anything else without changing it", async () => {
    const read = await call(getSettings, { headers: merchant.auth });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ accountCurrency: "USD", currencies: ["USD", "EUR", "GBP", "CHF", "CAD", "AUD", "JPY"] });
    for (const body of [
      { accountCurrency: "usd" },
      { accountCurrency: "XYZ" },
      { accountCurrency: 978 },
      {},
      { accountCurrency: "EUR", extra: 1 },
      { accountCurrency: "EUR\u0000" },
    ]) {
      const refused = await call(patchSettings, { method: "PATCH", headers: merchant.auth, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe("VALIDATION_ERROR");
      const [row] = await db().select({ c: users.accountCurrency }).from(users).where(eq(users.id, merchant.userId));
      expect(row?.c).toBe("USD");
    }
    expect((await call(patchSettings, { method: "PATCH", body: { accountCurrency: "EUR" } })).status).toBe(401);
    const set = await call(patchSettings, { method: "PATCH", headers: merchant.auth, body: { accountCurrency: "EUR" } });
    expect(set.status).toBe(200);
    expect(set.body.data.accountCurrency).toBe("EUR");
    expect((await call(getSettings, { headers: merchant.auth })).body.data.accountCurrency).toBe("EUR");
    await call(patchSettings, { method: "PATCH", headers: merchant.auth, body: { accountCurrency: "USD" } });
  });

  it("keeps each fiat payment's value at its locked rate in the day totals, and moves it with the session", async () => {
    const rows = await db()
      .select({ currency: paymentDayTotals.fiatCurrency, value: sql<string>`sum(${paymentDayTotals.value})::text` })
      .from(paymentDayTotals)
      .where(and(eq(paymentDayTotals.userId, merchant.userId), eq(paymentDayTotals.status, "completed")))
      .groupBy(paymentDayTotals.fiatCurrency)
      .orderBy(paymentDayTotals.fiatCurrency);
    expect(rows).toEqual([
      { currency: "EUR", value: "2000" },
      { currency: "USD", value: "3600" },
      { currency: null, value: "0" },
    ]);
    const completedUsd = async () =>
      (
        await db()
          .select({ value: sql<string>`sum(${paymentDayTotals.value})::text` })
          .from(paymentDayTotals)
          .where(
            and(
              eq(paymentDayTotals.userId, merchant.userId),
              eq(paymentDayTotals.status, "completed"),
              eq(paymentDayTotals.fiatCurrency, "USD"),
            ),
          )
      )[0]?.value;
    // The pending 99.00 USD session paid half, then completed: its value moves in with it, at its rate; and out again.
    const [pending] = await db()
      .select()
      .from(paymentSessions)
      .where(and(eq(paymentSessions.userId, merchant.userId), eq(paymentSessions.status, "pending")));
    if (!pending) throw new Error("no pending session");
    const paid = { ...pending, status: "completed" as const, receivedAmount: pending.amount / 2n, completedAt: new Date() };
    await tallySessionMoves(db(), [{ before: pending, after: paid }]);
    expect(await completedUsd()).toBe("8550"); // 36.00 + 49.50
    await tallySessionMoves(db(), [{ before: paid, after: pending }]);
    expect(await completedUsd()).toBe("3600");
  });

  it("backfills the day totals' values of sessions already there by the same rule (drizzle/0035)", async () => {
    const [, , backfill] = readFileSync("drizzle/0035_account_currency.sql", "utf8").split("--> statement-breakpoint");
    const values = () =>
      db()
        .select({
          day: paymentDayTotals.day,
          token: paymentDayTotals.tokenId,
          currency: paymentDayTotals.fiatCurrency,
          value: paymentDayTotals.value,
        })
        .from(paymentDayTotals)
        .where(eq(paymentDayTotals.userId, merchant.userId))
        .orderBy(paymentDayTotals.day, paymentDayTotals.tokenId, paymentDayTotals.fiatCurrency);
    const kept = await values();
    await db().update(paymentDayTotals).set({ value: 0n }).where(eq(paymentDayTotals.userId, merchant.userId));
    await db().execute(sql.raw(backfill ?? ""));
    expect(await values()).toEqual(kept);
  });

  it("shows the overview in USD: locked values, the stablecoin 1:1, EUR at today's feed rate (shown), the volatile token not valued", async () => {
    const volume = await accountVolume(db(), merchant.userId, "USD", 7);
    // 25.00 + 11.00 + 12.50 in USD, and 20.00 EUR × 1.08 = 21.60 USD.
    expect(volume.total).toBe("70.10");
    expect(volume.byCurrency).toEqual([
      {
        currency: "EUR",
        total: "20.00",
        converted: "21.60",
        conversion: expect.objectContaining({ from: "EUR", to: "USD", rate: "1.08000000" }),
      },
      { currency: "USD", total: "48.50", converted: "48.50", conversion: expect.objectContaining({ rate: "1.00000000", asOf: null }) },
    ]);
    expect(volume.notValued).toEqual([{ symbol: "VOL", total: "3" }]);
    expect(volume.symbols).toEqual(["USDX"]);
    expect(volume.points.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10), USDX: "70.10" });
  });

  it("shows it in EUR: EUR payments as locked, USD ones converted at today's rate, rounded down", async () => {
    const volume = await accountVolume(db(), merchant.userId, "EUR", 30);
    // 48.50 USD ÷ 1.08 = 44.9074… → 44.90 EUR (rate 0.92592592 EUR per USD, rounded down), plus 20.00 EUR.
    expect(volume.byCurrency.find((c) => c.currency === "USD")).toMatchObject({ total: "48.50", converted: "44.90" });
    expect(volume.total).toBe("64.90");
    expect(volume.points).toHaveLength(30);
  });

  it("leaves a currency without a fresh rate out of the total, shown apart, never at a guessed rate", async () => {
    const latest = await chain().client.getBlock();
    await setFeed(eurFeed, 108_000_000n, latest.timestamp - 7200n); // older than its heartbeat (1 h)
    try {
      expect(await todaysConversion(db(), "USD", "EUR")).toBeNull();
      clearRateCache();
      const volume = await accountVolume(db(), merchant.userId, "EUR", 7);
      expect(volume.byCurrency.find((c) => c.currency === "USD")).toMatchObject({ total: "48.50", converted: null, conversion: null });
      expect(volume.total).toBe("20.00");
      expect(volume.symbols).toEqual(["USDX"]);
    } finally {
      await setFeed(eurFeed, 108_000_000n);
    }
  });

  it("gives each listed payment its recorded value and currency", async () => {
    const list = await listUserPayments(db(), merchant.userId, paymentFiltersSchema.parse({}));
    const values = list.items.map((p) => `${p.token} ${p.currency ?? "-"} ${p.valueCurrency ?? "-"} ${p.value ?? "-"}`).sort();
    expect(values).toEqual([
      "USDX - USD 12.50",
      "USDX EUR EUR 20.00",
      "USDX USD - -",
      "USDX USD USD 11.00",
      "USDX USD USD 25.00",
      "VOL - - -",
    ]);
  });
});
