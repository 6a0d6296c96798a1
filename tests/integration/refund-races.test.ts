/**
 * Refunds at the claim's deadline : a claim and a refund of the whole
 * payment racing across the deadline never both send. The deadline is judged by one clock (the
 * database's), and a refund waits for a claim whose transaction is still open.
 */
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { refunds } from "@/lib/db/schema";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import {
  claimReq,
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

afterEach(() => {
  vi.useRealTimers();
});

/** The claim's deadline, set on the database's clock. */
async function deadlineIn(refundId: string, milliseconds: number): Promise<void> {
  await db()
    .update(refunds)
    .set({ claimExpiresAt: sql`now() + make_interval(secs => ${milliseconds / 1000})` })
    .where(eq(refunds.id, refundId));
}

describe("a claim and a refund of the whole payment at the claim's deadline", () => {
  // PGlite runs in this process on its clock: only a server has a clock of its own.
  it.skipIf(!onPostgres)("use one clock: an app clock behind the database's cannot reopen a claim the refund counted as free", async () => {
    const { sessionId } = await paidSession(shop, "4", "4");
    const a = await refundReq(shop, sessionId, { amount: "4" });
    expect(a.body.data).toMatchObject({ status: "awaiting_address", amount: "4" });
    await deadlineIn(a.body.data.refundId, -60_000);
    // This process's clock an hour behind the database's: by it, the claim is open for 59 more minutes.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 3_600_000, shouldAdvanceTime: true });
    await resetRateLimits(); // its buckets were filled by the real clock

    // The database's clock says the claim expired: the whole payment may go back to the merchant's address…
    const b = await refundReq(shop, sessionId, { amount: "4", toAddress: PAYER_NEW_ADDRESS });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    // …so the claim must be expired by that clock too, and send nothing.
    const claimed = await claimReq(a.body.data.claimUrl, PAYER_NEW_ADDRESS);
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(400);
    expect(claimed.body.error.message).toMatch(/expired/);
    vi.useRealTimers();

    const after = await refundsOfSession(db(), sessionId);
    expect(after.withdrawals).toHaveLength(1);
    expect(after.sent).toBe(units("4"));
    expect(after.refunds.find((r) => r.id === a.body.data.refundId)).toMatchObject({ status: "cancelled" });
    await settleWithdrawals(shop);
  });

  it.skipIf(!onPostgres)("wait for a claim whose transaction is still open, and then count it (PostgreSQL: two connections)", async () => {
    const { sessionId } = await paidSession(shop, "5", "5");
    const a = await refundReq(shop, sessionId, { amount: "5" });
    const claimId = a.body.data.refundId as string;
    // The claim was decided just before its deadline; the deadline passes while its transaction is open.
    await deadlineIn(claimId, -1000);
    let flipped!: () => void;
    let release!: () => void;
    const flippedNow = new Promise<void>((resolve) => {
      flipped = resolve;
    });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const claimTx = db().transaction(async (tx) => {
      await tx
        .update(refunds)
        .set({ status: "sending", toAddress: PAYER_NEW_ADDRESS, addressFrom: "payer" })
        .where(eq(refunds.id, claimId));
      flipped();
      await held;
    });
    await flippedNow;

    const b = refundReq(shop, sessionId, { amount: "5", toAddress: PAYER_NEW_ADDRESS });
    // The refund must wait for the claim's row; the old code counted the claim as expired and went on.
    const waiting = async () => {
      for (let i = 0; i < 100; i++) {
        const [row] = await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(sql`pg_stat_activity`)
          .where(sql`datname = current_database() and wait_event_type = 'Lock'`);
        if ((row?.n ?? 0) > 0) return "waiting";
        await new Promise((r) => setTimeout(r, 50));
      }
      return "never waited";
    };
    const first = await Promise.race([waiting(), b.then(() => "answered")]);
    release();
    await claimTx;
    const answer = await b;
    expect(first).toBe("waiting");
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error.message).toMatch(/already refunded/);
    const after = await refundsOfSession(db(), sessionId);
    expect(after.refunds.map((r) => r.status).sort()).toEqual(["sending"]);
    expect(after.withdrawals).toHaveLength(0);
    // The claim was simulated (no withdrawal): put it back out of the way.
    await db().update(refunds).set({ status: "failed" }).where(eq(refunds.id, claimId));
  });

  it("never both send, whichever comes first around the deadline", async () => {
    await resetRateLimits();
    for (const offset of [-200, 0, 150, 400]) {
      const { sessionId } = await paidSession(shop, "3", "3");
      const a = await refundReq(shop, sessionId, { amount: "3" });
      await deadlineIn(a.body.data.refundId, offset);
      const [claimed, refunded] = await Promise.all([
        claimReq(a.body.data.claimUrl, PAYER_NEW_ADDRESS),
        refundReq(shop, sessionId, { amount: "3", toAddress: PAYER_NEW_ADDRESS }),
      ]);
      const after = await refundsOfSession(db(), sessionId);
      const context = JSON.stringify({ offset, claim: claimed.body, refund: refunded.body });
      expect(after.sent, context).toBeLessThanOrEqual(units("3"));
      expect(after.withdrawals.length, context).toBeLessThanOrEqual(1);
      expect([claimed.status, refunded.status].filter((s) => s < 300).length, context).toBeLessThanOrEqual(1);
      await settleWithdrawals(shop);
    }
  });
});
