import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Address } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as cancel } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { GET as history } from "@/app/api/v1/payment/history/route";
import type { Db } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { paymentDayTotals, paymentSessions, sessionCounts } from "@/lib/db/schema";
import { createPaymentSession } from "@/lib/domain/payments/create-session";
import { expireDueSessions } from "@/lib/domain/payments/expire-due";
import { recordTransfers } from "@/lib/domain/payments/record-transfers";
import { createPaymentSchema } from "@/lib/domain/payments/schemas";
import { paymentsByStatus, volumeByDay } from "@/lib/web/dashboard/overview/overview";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

/**
 * The session counters and day totals move with every write, in its transaction: after any
 * history they equal what counting and grouping the sessions would give, and what the history's
 * totals and the overview show.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const UNIT = 10n ** 18n;

let merchant: Merchant;
let token: Address;
const headers = () => ({ "x-api-key": merchant.apiKey });

async function newSession(amount = "5") {
  const res = await call(create, { method: "POST", headers: headers(), body: { tokenId: merchant.tokenId, amount } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data as { sessionId: string; depositAddress: string };
}

/** A confirmed transfer into the session's address, as the scanner would record it (mined at `minedAt`). */
async function pay(tx: Db, session: { sessionId: string; depositAddress: string }, units: bigint, minedAt = new Date()) {
  await recordTransfers(tx, [
    {
      network: "bsc",
      txHash: `0x${randomBytes(32).toString("hex")}`,
      logIndex: 0,
      blockNumber: 1n,
      blockHash: `0x${randomBytes(32).toString("hex")}`,
      blockTimestamp: minedAt,
      tokenContract: token,
      fromAddress: "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199",
      toAddress: session.depositAddress,
      amount: units,
      sessionId: session.sessionId,
    },
  ]);
}

async function expire(sessionId: string) {
  await db()
    .update(paymentSessions)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(paymentSessions.id, sessionId));
  await expireDueSessions(db());
}

const statuses = { pending: 0, completed: 0, expired: 0, cancelled: 0 };

async function directByStatus(where: ReturnType<typeof sql>) {
  const rows = rowsOf<{ status: string; n: number }>(
    await db().execute(sql`select status, count(*)::int as n from payment_sessions where ${where} group by status`),
  );
  return { ...statuses, ...Object.fromEntries(rows.map((r) => [r.status, r.n])) };
}

async function dayTotals() {
  const rows = await db().select().from(paymentDayTotals).where(eq(paymentDayTotals.userId, merchant.userId));
  return rows
    .filter((r) => r.sessions !== 0 || r.received !== 0n)
    .map((r) => `${r.day} ${r.status} ${r.sessions} ${r.received}`)
    .sort();
}

/** Counters, day totals, the history's totals and the overview against a direct count of the sessions. */
async function expectExact() {
  const byKey = await directByStatus(sql`api_key_id = ${merchant.apiKeyId}`);
  const all = await call(history, { headers: headers(), path: "/?limit=1" });
  expect(all.body.data.meta.total).toBe(Object.values(byKey).reduce((a, b) => a + b, 0));
  for (const [status, n] of Object.entries(byKey))
    expect((await call(history, { headers: headers(), path: `/?status=${status}` })).body.data.meta.total, status).toBe(n);
  expect(await paymentsByStatus(db(), merchant.userId)).toEqual(await directByStatus(sql`user_id = ${merchant.userId}`));

  const direct = rowsOf<{ day: string; status: string; n: number; received: string }>(
    await db().execute(sql`select to_char(case status when 'completed' then completed_at when 'expired' then expired_at else cancelled_at end
        at time zone 'UTC', 'YYYY-MM-DD') as day, status, count(*)::int as n, sum(received_amount)::text as received
      from payment_sessions where user_id = ${merchant.userId} and status <> 'pending' group by 1, 2`),
  );
  expect(await dayTotals()).toEqual(direct.map((r) => `${r.day} ${r.status} ${r.n} ${r.received}`).sort());
  const completed = direct.filter((r) => r.status === "completed").reduce((sum, r) => sum + BigInt(r.received), 0n);
  const volume = await volumeByDay(db(), merchant.userId, 7);
  expect(volume.totals).toEqual(completed === 0n ? [] : [{ symbol: "CNT", total: String(completed / UNIT) }]);
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  token = await deployTestToken(chain().url, { symbol: "CNT" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
});

describe("session counters and day totals", () => {
  it("stay exact through create, complete, cancel, expire, a late transfer and a completion after expiry", async () => {
    const s: { sessionId: string; depositAddress: string }[] = [];
    for (let i = 0; i < 6; i++) s.push(await newSession(String(i + 1)));
    const input = createPaymentSchema.parse({ tokenId: merchant.tokenId, amount: "4" });
    await createPaymentSession(db(), { userId: merchant.userId, apiKeyId: null }, input, null);
    await expectExact();

    await db().transaction((tx) => pay(tx, s[0]!, 1n * UNIT));
    await expectExact();
    await db().transaction((tx) => pay(tx, s[0]!, 2n * UNIT)); // a second transfer of an over-payment
    await call(cancel, { method: "POST", headers: headers(), params: { sessionId: s[1]!.sessionId } });
    await expectExact();

    await db().transaction((tx) => pay(tx, s[2]!, 1n * UNIT)); // a part payment, then the session runs out
    await expire(s[2]!.sessionId);
    await expire(s[3]!.sessionId);
    await expectExact();

    await db().transaction((tx) => pay(tx, s[3]!, 4n * UNIT)); // late: mined after the expiry
    const [late] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, s[3]!.sessionId));
    expect(late).toMatchObject({ status: "expired", late: true });
    await expectExact();

    await expire(s[4]!.sessionId);
    await db().transaction((tx) => pay(tx, s[4]!, 5n * UNIT, new Date(Date.now() - 120_000))); // mined in time, confirmed after
    const [revived] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, s[4]!.sessionId));
    expect(revived?.status).toBe("completed");
    await expectExact();
  });

  it("stay exact through a concurrent burst of creates, payments, cancels and expiries", async () => {
    const early = await Promise.all(Array.from({ length: 12 }, () => newSession("2")));
    await Promise.all([
      ...Array.from({ length: 24 }, () => newSession("3")),
      ...early.slice(0, 4).map((s) => call(cancel, { method: "POST", headers: headers(), params: { sessionId: s.sessionId } })),
      ...early.slice(4, 8).map((s) => db().transaction((tx) => pay(tx, s, 2n * UNIT))),
      ...early.slice(8).map((s) => expire(s.sessionId)),
      expireDueSessions(db()),
    ]);
    await expectExact();
    // Writers spread over slots: no single row per key and status takes every create.
    const slots = await db().select({ slot: sessionCounts.slot }).from(sessionCounts).where(eq(sessionCounts.apiKeyId, merchant.apiKeyId));
    expect(new Set(slots.map((r) => r.slot)).size).toBeGreaterThan(1);
  });

  it("move in the completing transaction, and not at all when it rolls back", async () => {
    const session = await newSession("7");
    const before = { counts: await paymentsByStatus(db(), merchant.userId), days: await dayTotals() };
    const inside = await db()
      .transaction(async (tx) => {
        await pay(tx, session, 7n * UNIT);
        const [row] = await tx
          .select({ n: sql<string>`sum(${sessionCounts.sessions})` })
          .from(sessionCounts)
          .where(sql`${sessionCounts.userId} = ${merchant.userId} and ${sessionCounts.status} = 'completed'`);
        const [day] = await tx
          .select({ received: sql<string>`sum(${paymentDayTotals.received})` })
          .from(paymentDayTotals)
          .where(sql`${paymentDayTotals.userId} = ${merchant.userId} and ${paymentDayTotals.status} = 'completed'`);
        throw Object.assign(new Error("roll back"), { seen: { completed: Number(row?.n), received: BigInt(day?.received ?? 0) } });
      })
      .catch((error: { seen: { completed: number; received: bigint } }) => error.seen);
    expect(inside.completed).toBe(before.counts.completed + 1);
    expect(await paymentsByStatus(db(), merchant.userId)).toEqual(before.counts);
    expect(await dayTotals()).toEqual(before.days);
    await expectExact();
  });
});
