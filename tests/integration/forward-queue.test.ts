import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Forward, forwards } from "@/lib/db/schema";
import { addressHasOtherInFlight, backoffSeconds, MAX_FORWARD_ATTEMPTS, recordFailure } from "@/lib/engine/forwarding/forward-records";
import { isForwardDue, MAX_RETRYABLE_PAUSE_SECONDS } from "@/lib/engine/forwarding/forward-schedule";
import { advanceForward, dueForwards } from "@/lib/engine/forwarding/forwarder";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";

/** The forward queue as an attacker would try to jam it: failing forwards, held ones, one busy address. */
const db = useTestDatabase();
const A = "0x00000000000000000000000000000000000000a1";
const B = "0x00000000000000000000000000000000000000b2";
const C = "0x00000000000000000000000000000000000000c3";
const TOKEN = "0x00000000000000000000000000000000000000f0";
const secondsFromNow = (s: number) => new Date(Date.now() + s * 1000);

async function forward(fields: Partial<typeof forwards.$inferInsert> & { fromAddress: string }): Promise<Forward> {
  const [row] = await db()
    .insert(forwards)
    .values({ network: "bsc", toAddress: "0x00000000000000000000000000000000000000ee", tokenContract: TOKEN, amount: 1n, ...fields })
    .returning();
  return row!;
}
const reload = async (id: number) => (await db().select().from(forwards).where(eq(forwards.id, id)))[0]!;

describe("the forward queue cannot be poisoned", () => {
  it("picks due forwards by nextAttemptAt, not by id: an old failing forward does not starve newer ones; held ones are skipped", async () => {
    await db().delete(forwards);
    const oldFailing = await forward({ fromAddress: A, nextAttemptAt: secondsFromNow(300), attempts: 4 });
    const held = await forward({ fromAddress: B, status: "held", nextAttemptAt: secondsFromNow(-100) });
    const newer = await forward({ fromAddress: B, nextAttemptAt: secondsFromNow(-10) });
    const newest = await forward({ fromAddress: C, nextAttemptAt: secondsFromNow(-20) });
    const sameAddress = await forward({ fromAddress: C, nextAttemptAt: secondsFromNow(-5) });
    const due = (await dueForwards(db(), 10)).map((d) => d.forwardId);
    expect(due).toEqual([newest.id, newer.id]); // by time; one per address; not the held, not the one backing off
    expect(due).not.toContain(oldFailing.id);
    expect(due).not.toContain(held.id);
    expect(due).not.toContain(sameAddress.id);
  });

  it("serialises an address only while one of its transactions is in flight; a held forward never blocks it", async () => {
    await db().delete(forwards);
    const held = await forward({ fromAddress: A, status: "held" });
    const next = await forward({ fromAddress: A });
    expect(await db().transaction((tx) => addressHasOtherInFlight(tx, next))).toBe(false);
    await db().update(forwards).set({ status: "completed" }).where(eq(forwards.id, held.id));
    const inFlight = await forward({ fromAddress: A, status: "sweep_sent" });
    expect(await db().transaction((tx) => addressHasOtherInFlight(tx, next))).toBe(true);
    expect(await db().transaction((tx) => addressHasOtherInFlight(tx, inFlight))).toBe(false);
  });

  it(`holds a forward after ${MAX_FORWARD_ATTEMPTS} failed attempts that would repeat, with the reason, instead of retrying it forever`, async () => {
    await db().delete(forwards);
    const stubborn = await forward({ fromAddress: A });
    const refusal = (n: number) => ({ reason: `the node refuses #${n}`, kind: "rejected" as const });
    for (let attempt = 1; attempt < MAX_FORWARD_ATTEMPTS; attempt++) {
      const before = Date.now();
      expect(await recordFailure(db(), stubborn.id, refusal(attempt))).toBe("retry");
      const row = await reload(stubborn.id);
      expect(row).toMatchObject({ status: "pending", attempts: attempt, lastError: `the node refuses #${attempt}` });
      const wait = (row.nextAttemptAt.getTime() - before) / 1000;
      expect(wait).toBeGreaterThanOrEqual(backoffSeconds(attempt) - 1);
      expect(wait).toBeLessThanOrEqual(backoffSeconds(attempt) + 1);
    }
    expect(await recordFailure(db(), stubborn.id, refusal(MAX_FORWARD_ATTEMPTS))).toBe("held");
    const held = await reload(stubborn.id);
    expect(held).toMatchObject({ status: "held", attempts: MAX_FORWARD_ATTEMPTS });
    expect(held.heldReason).toBe(`gave up after ${MAX_FORWARD_ATTEMPTS} failed attempts; last: the node refuses #${MAX_FORWARD_ATTEMPTS}`);
    expect((await dueForwards(db(), 10, secondsFromNow(3600))).map((d) => d.forwardId)).not.toContain(stubborn.id);
  });

  it("never counts an RPC that does not answer (or throttles): no hold however long it lasts, a short pause each time", async () => {
    await db().delete(forwards);
    const waiting = await forward({ fromAddress: A, attempts: 2 });
    for (let i = 0; i < MAX_FORWARD_ATTEMPTS * 3; i++) {
      const before = Date.now();
      const kind = i % 2 === 0 ? ("transient" as const) : ("rate-limited" as const);
      expect(await recordFailure(db(), waiting.id, { reason: `HTTP request failed #${i}`, kind })).toBe("retry");
      const row = await reload(waiting.id);
      expect(row).toMatchObject({ status: "pending", attempts: 2, lastError: `HTTP request failed #${i}` });
      const wait = (row.nextAttemptAt.getTime() - before) / 1000;
      expect(wait).toBeGreaterThanOrEqual(kind === "transient" ? backoffSeconds(3) - 1 : MAX_RETRYABLE_PAUSE_SECONDS - 1);
      expect(wait).toBeLessThanOrEqual(MAX_RETRYABLE_PAUSE_SECONDS + 1);
    }
  });

  it("never holds a forward whose transaction is in flight: it keeps checking the chain, backing off", async () => {
    await db().delete(forwards);
    const sent = await forward({ fromAddress: A, status: "sweep_sent", attempts: MAX_FORWARD_ATTEMPTS + 3 });
    expect(await recordFailure(db(), sent.id, { reason: "the node refuses", kind: "rejected" })).toBe("retry");
    expect(await reload(sent.id)).toMatchObject({ status: "sweep_sent", attempts: MAX_FORWARD_ATTEMPTS + 4 });
  });

  it("does nothing to a forward that is not due, whoever asks; says when it is due", async () => {
    await db().delete(forwards);
    const backingOff = await forward({ fromAddress: A, attempts: 3, lastError: "the node refuses", nextAttemptAt: secondsFromNow(40) });
    const due = await forward({ fromAddress: B, nextAttemptAt: secondsFromNow(-1) });
    const advanced = await advanceForward(db(), backingOff.id);
    expect(advanced).toEqual({ outcome: "not-due", dueAt: backingOff.nextAttemptAt });
    const row = await reload(backingOff.id);
    expect(row).toMatchObject({
      status: "pending",
      attempts: 3,
      lastError: "the node refuses",
      nextAttemptAt: backingOff.nextAttemptAt,
      lockedUntil: null,
    });
    // The database's pick (dueForwards) and the forwarder's check (isForwardDue) agree.
    const now = new Date();
    const picked = (await dueForwards(db(), 10, now)).map((d) => d.forwardId);
    for (const f of [row, await reload(due.id)]) expect(picked.includes(f.id)).toBe(isForwardDue(f, now));
    expect(picked).toEqual([due.id]);
  });

  it("turns a failing step into a recorded, backed-off retry, not counted (here: an RPC that does not answer)", async () => {
    useConfig({ BSC_RPC_URL: "http://127.0.0.1:1/v3/key", NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
    await db().delete(forwards);
    const stuck = await forward({ fromAddress: A });
    // Batched mode first asks whether the chain can batch: a node that does not answer that is no
    // reason to count against the forward; it waits a second (made due here), then goes the classic way.
    let { outcome } = await advanceForward(db(), stuck.id);
    for (let i = 0; i < 3 && outcome === "waiting"; i++) {
      await db().update(forwards).set({ nextAttemptAt: new Date() }).where(eq(forwards.id, stuck.id));
      ({ outcome } = await advanceForward(db(), stuck.id));
    }
    expect(outcome).toBe("retry");
    const row = await reload(stuck.id);
    expect(row).toMatchObject({ status: "pending", attempts: 0, lockedUntil: null });
    expect(row.lastError).toContain("HTTP request failed");
    expect(row.lastError).not.toContain("/v3/key");
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  });
});
