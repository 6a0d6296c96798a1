/** Operator views and actions on forwards (npm run admin -- forwards held|retry, stuck-forwards). */
import { and, asc, count, eq, lt, ne } from "drizzle-orm";
import type { Db } from "../../db";
import { type Forward, forwards } from "../../db/schema/engine";
import { applyForwardFact } from "./forward-records";

export async function heldForwards(db: Db, network?: string): Promise<Forward[]> {
  return db
    .select()
    .from(forwards)
    .where(and(eq(forwards.status, "held"), network ? eq(forwards.network, network) : undefined))
    .orderBy(asc(forwards.id));
}

export async function countHeldForwards(db: Db, network: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(forwards)
    .where(and(eq(forwards.status, "held"), eq(forwards.network, network)));
  return Number(row?.n ?? 0);
}

/**
 * Held → pending with a clean slate of attempts: the operator fixed the cause (raised the cap,
 * refilled, or accepts the retry). Returns the forwards released.
 */
export async function retryHeldForwards(db: Db, which: number | "all"): Promise<Forward[]> {
  const held = await db
    .select()
    .from(forwards)
    .where(and(eq(forwards.status, "held"), which === "all" ? undefined : eq(forwards.id, which)))
    .orderBy(asc(forwards.id));
  const released: Forward[] = [];
  for (const forward of held) {
    // A worker's lease is dropped too: nothing of a held forward is in flight.
    if (!(await applyForwardFact(db, forward, { kind: "operator-retry" }, { record: { lockedUntil: null } }))) continue;
    const [after] = await db.select().from(forwards).where(eq(forwards.id, forward.id));
    if (after) released.push(after);
  }
  return released;
}

/** Forwards not finished after `olderThanSeconds` (held ones included), for the operator. */
export async function openForwards(db: Db, olderThanSeconds = 0): Promise<Forward[]> {
  return db
    .select()
    .from(forwards)
    .where(and(ne(forwards.status, "completed"), lt(forwards.createdAt, new Date(Date.now() - olderThanSeconds * 1000))))
    .orderBy(asc(forwards.id));
}
