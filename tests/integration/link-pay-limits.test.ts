/**
 * A public payment link cannot take the merchant's checkout down: a flood of
 * Pays from 1,000 client addresses uses none of the monthly quota (link sessions count once paid),
 * takes at most LINK_OPEN_SESSIONS deposit addresses (a client's repeated Pay returns its open
 * session; past the cap Pay answers 429 with Retry-After), and the shop's payment/create keeps
 * working. The 10,000 Pays from 1,000 addresses are 10 rounds of one Pay per address; every
 * round after the first meets the same state (each client's own session, or the full link), so the
 * test runs FLOOD_ROUNDS of them (3; LINK_FLOOD_ROUNDS=10 runs all 10,000, ~45 s) against a quota
 * of 50 — below the cap, so counting link sessions would make payment/create fail.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as pay } from "@/app/api/links/[slug]/pay/route";
import { POST as choosePlan } from "@/app/api/user/package/route";
import { POST as createLink } from "@/app/api/user/payment-links/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { paymentSessions, plans, sessionUsage, tokenCatalogue } from "@/lib/db/schema";
import { LINK_OPEN_SESSIONS_PER_CLIENT } from "@/lib/domain/payment-links/open-sessions";
import { forgetAcceptedTokens } from "@/lib/domain/tokens/accepted-tokens";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call, fromClient } from "../helpers/http";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
/** Lower than the sessions the flood could open: had link sessions counted, payment/create would fail. */
const QUOTA = 50;
const CAP = 100;
const FLOOD_ROUNDS = Number(process.env.LINK_FLOOD_ROUNDS ?? 3);

let merchant: Merchant;
let token: Address;
const payFrom = (slug: string, ip: string, body: Record<string, unknown> = {}) =>
  call(pay, { method: "POST", params: { slug }, body, headers: fromClient(ip) });
const newLink = async (body: Record<string, unknown>) =>
  (await call(createLink, { method: "POST", headers: merchant.auth, body: { tokenId: merchant.tokenId, ...body } })).body.data as {
    linkId: number;
    slug: string;
  };
const usage = async () => (await db().select().from(sessionUsage).where(eq(sessionUsage.userId, merchant.userId)))[0]?.sessions ?? 0;
const sessionsOf = async (linkId: number) => db().select().from(paymentSessions).where(eq(paymentSessions.paymentLinkId, linkId));

const config = (extra: Record<string, string> = {}) =>
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1", ...extra });
const setMinimumPayment = async (units: bigint | null) => {
  await db()
    .update(tokenCatalogue)
    .set({ minPaymentAmount: units })
    .where(sql`lower(${tokenCatalogue.contractAddress}) = ${token.toLowerCase()}`);
  forgetAcceptedTokens();
};
const send = async (to: Address, units: bigint) => {
  await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, to, units) });
  await runEngine(db(), chain().url);
};

beforeAll(async () => {
  config();
  await fundGasTank(chain().url);
  token = await deployTestToken(chain().url, { symbol: "LPL" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
  await db().insert(plans).values({ id: "fifty", name: "Fifty", monthlySessionQuota: QUOTA, selfServe: true });
  await call(choosePlan, { method: "POST", headers: merchant.auth, body: { plan: "fifty" } });
});
beforeEach(async () => {
  config();
  await resetRateLimits();
});

describe("payment link Pay under a flood", () => {
  it("1,000 addresses pressing Pay again and again: no quota used, at most the cap of sessions, payment/create still works", async () => {
    const link = await newLink({ title: "Flooded", amount: "3" });
    const addresses = Array.from({ length: 1000 }, (_, i) => `198.18.${i >> 8}.${i & 255}`);
    const statuses = new Map<number, number>();
    const sessionOf = new Map<string, Set<string>>();
    // Each round, every address presses Pay once (the per-address limit allows ten a minute).
    for (let round = 0; round < FLOOD_ROUNDS; round++) {
      for (let start = 0; start < addresses.length; start += 50) {
        const batch = addresses.slice(start, start + 50);
        const answers = await Promise.all(batch.map((ip) => payFrom(link.slug, ip)));
        answers.forEach((answer, i) => {
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 201) {
            const ip = batch[i]!;
            sessionOf.set(ip, (sessionOf.get(ip) ?? new Set()).add(answer.body.data.sessionId));
          } else {
            expect(answer.status).toBe(429);
            expect(answer.body.error.code).toBe("RATE_LIMITED");
            expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
          }
        });
      }
    }
    expect([...statuses.values()].reduce((a, b) => a + b)).toBe(1000 * FLOOD_ROUNDS);
    // The first CAP clients got a session each and got it back on every later Pay; the others were told to come back.
    expect(sessionOf.size).toBe(CAP);
    expect([...sessionOf.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(statuses.get(201)).toBe(CAP * FLOOD_ROUNDS);
    expect(statuses.get(429)).toBe((1000 - CAP) * FLOOD_ROUNDS);
    expect(await sessionsOf(link.linkId)).toHaveLength(CAP);
    expect(await usage()).toBe(0);

    const shop = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "5" },
    });
    expect(shop.status).toBe(201);
    expect(await usage()).toBe(1);
  }, 300_000);

  it("counts a link session once something is paid to it (once, whatever more arrives)", async () => {
    const link = await newLink({ title: "Paid once", amount: "2" });
    const before = await usage();
    const session = (await payFrom(link.slug, "203.0.113.10")).body.data;
    expect(await usage()).toBe(before);
    for (const amount of ["1", "1"]) {
      await chain().client.waitForTransactionReceipt({
        hash: await payTo(chain().url, token, session.depositAddress, parseUnits(amount, 18)),
      });
      await runEngine(db(), chain().url);
    }
    expect(await usage()).toBe(before + 1);
    const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, session.sessionId));
    expect(row).toMatchObject({ status: "completed", quotaCountedAt: expect.any(Date) });
    const uncounted = await db()
      .select()
      .from(paymentSessions)
      .where(and(eq(paymentSessions.paymentLinkId, link.linkId), isNull(paymentSessions.quotaCountedAt)));
    expect(uncounted).toHaveLength(0);
  });

  it("returns a client's open session for the same amount; another amount or another client gets a new one", async () => {
    const link = await newLink({ title: "Tips", minAmount: "1" });
    const a = await payFrom(link.slug, "203.0.113.20", { amount: "2" });
    const again = await payFrom(link.slug, "203.0.113.20", { amount: "2" });
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ sessionId: a.body.data.sessionId, depositAddress: a.body.data.depositAddress, amount: "2" });
    const otherAmount = await payFrom(link.slug, "203.0.113.20", { amount: "3" });
    const otherClient = await payFrom(link.slug, "203.0.113.21", { amount: "2" });
    expect(new Set([a, otherAmount, otherClient].map((r) => r.body.data.sessionId)).size).toBe(3);
    // Two payers behind one address (a NAT) are told apart by their browsers' ids; each gets its own session back.
    const alice = { amount: "2", browser: "alice-browser-0123456789" };
    const bob = { amount: "2", browser: "bob-browser-0123456789ab" };
    const aliceFirst = await payFrom(link.slug, "203.0.113.22", alice);
    const bobFirst = await payFrom(link.slug, "203.0.113.22", bob);
    expect(bobFirst.body.data.sessionId).not.toBe(aliceFirst.body.data.sessionId);
    expect((await payFrom(link.slug, "203.0.113.22", alice)).body.data.sessionId).toBe(aliceFirst.body.data.sessionId);
    expect((await payFrom(link.slug, "203.0.113.22", { amount: "2", browser: "bad id" })).status).toBe(400);
    // An IPv6 client is one /64: its next address is the same client.
    const v6 = await payFrom(link.slug, "2001:db8:5:6::1", { amount: "2" });
    const v6again = await payFrom(link.slug, "2001:db8:5:6::abcd", { amount: "2" });
    expect(v6again.body.data.sessionId).toBe(v6.body.data.sessionId);
  });

  it("a link at its quota refuses new sessions, and a merchant's own links cannot start more than the quota allows", async () => {
    const link = await newLink({ title: "Near quota", amount: "1" });
    await db().update(sessionUsage).set({ sessions: QUOTA }).where(eq(sessionUsage.userId, merchant.userId));
    const refused = await payFrom(link.slug, "203.0.113.30");
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("NO_PACKAGE");
    expect(await sessionsOf(link.linkId)).toHaveLength(0);
    await db().update(sessionUsage).set({ sessions: 1 }).where(eq(sessionUsage.userId, merchant.userId));
  });

  it("1-wei deposits neither use the quota nor free the cap; the minimum payment counts once", async () => {
    config({ LINK_OPEN_SESSIONS: "2" });
    const ONE = parseUnits("1", 18);
    await setMinimumPayment(ONE);
    try {
      const link = await newLink({ title: "Dusted", amount: "3" });
      const before = await usage();
      const a = (await payFrom(link.slug, "203.0.113.80")).body.data;
      const b = (await payFrom(link.slug, "203.0.113.81")).body.data;
      for (const session of [a, b]) await send(session.depositAddress, 1n);
      expect(await usage()).toBe(before);
      const rows = await sessionsOf(link.linkId);
      expect(rows.map((r) => [r.receivedAmount, r.quotaCountedAt])).toEqual([
        [1n, null],
        [1n, null],
      ]);
      const full = await payFrom(link.slug, "203.0.113.82");
      expect(full.status).toBe(429);
      expect(full.body.error.code).toBe("RATE_LIMITED");

      // One base unit short of the minimum in all: still unpaid.
      await send(a.depositAddress, ONE - 2n);
      expect(await usage()).toBe(before);
      expect((await payFrom(link.slug, "203.0.113.82")).status).toBe(429);
      // The minimum reached: counted once, and the session no longer holds a place under the cap.
      await send(a.depositAddress, 1n);
      expect(await usage()).toBe(before + 1);
      expect((await payFrom(link.slug, "203.0.113.82")).status).toBe(201);
      await send(a.depositAddress, 2n * ONE);
      const [paid] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, a.sessionId));
      expect(paid).toMatchObject({ status: "completed", quotaCountedAt: expect.any(Date) });
      expect(await usage()).toBe(before + 1);
    } finally {
      await setMinimumPayment(null);
    }
  });

  it("one client cannot hold more than 3 open sessions of a link by varying its browser id or the amount", async () => {
    const link = await newLink({ title: "Busy-maker", minAmount: "1" });
    const ip = "203.0.113.90";
    const browser = (name: string) => `browser-${name}-0123456789abcdef`;
    const ids: string[] = [];
    for (let i = 0; i < LINK_OPEN_SESSIONS_PER_CLIENT; i++) {
      const answer = await payFrom(link.slug, ip, { amount: String(2 + i), browser: browser(String(i)) });
      expect(answer.status).toBe(201);
      ids.push(answer.body.data.sessionId);
    }
    for (const body of [{ amount: "9", browser: browser("x") }, { amount: "9" }]) {
      const refused = await payFrom(link.slug, ip, body);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe("RATE_LIMITED");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    // Another browser id for an amount the client has open: that session back, no new deposit address.
    const same = await payFrom(link.slug, ip, { amount: "3", browser: browser("y") });
    expect(same.status).toBe(201);
    expect(same.body.data.sessionId).toBe(ids[1]);
    expect(await sessionsOf(link.linkId)).toHaveLength(LINK_OPEN_SESSIONS_PER_CLIENT);
    // Another client is not held up by it.
    expect((await payFrom(link.slug, "203.0.113.91", { amount: "9" })).status).toBe(201);
  });
});
