/**
 * Fixed-window counters in PostgreSQL (table abuse_counters), so every instance counts the same
 * hits and a restart forgets none (docs/design.md §21). One atomic upsert per hit: a window that has
 * ended starts again at 1. Each new window also deletes a few rows whose window has ended, so the
 * table holds about one window's worth of keys without a cleaning job.
 */

import { eq, sql } from "drizzle-orm";
import { type AppError, commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { abuseCounters } from "../../db/schema";

export interface Window {
  /** Hits counted in the current window, this one included. */
  hits: number;
  endsAt: Date;
}

/** Expired rows one new window removes: more than it adds, so old keys drain away. */
const PRUNE_PER_NEW_WINDOW = 20;

/** Counts one hit under `key` in a window of `windowMs`; answers the window after it. */
export async function countHit(db: Db, key: string, windowMs: number, now = new Date()): Promise<Window> {
  const endsAt = new Date(now.getTime() + windowMs);
  const expired = sql`${abuseCounters.windowEndsAt} <= ${now.toISOString()}::timestamptz`;
  const [row] = await db
    .insert(abuseCounters)
    .values({ key, hits: 1, windowEndsAt: endsAt })
    .onConflictDoUpdate({
      target: abuseCounters.key,
      set: {
        hits: sql`case when ${expired} then 1 else ${abuseCounters.hits} + 1 end`,
        windowEndsAt: sql`case when ${expired} then excluded.window_ends_at else ${abuseCounters.windowEndsAt} end`,
      },
    })
    .returning({ hits: abuseCounters.hits, endsAt: abuseCounters.windowEndsAt });
  // biome-ignore lint/style/noNonNullAssertion: an upsert with returning answers its one row
  const window = row!;
  if (window.hits === 1) await prune(db, now);
  return window;
}

/** The current window of `key` without counting (null: none open). */
export async function readWindow(db: Db, key: string, now = new Date()): Promise<Window | null> {
  const [row] = await db
    .select({ hits: abuseCounters.hits, endsAt: abuseCounters.windowEndsAt })
    .from(abuseCounters)
    .where(eq(abuseCounters.key, key));
  return row && row.endsAt > now ? row : null;
}

export async function clearCounter(db: Db, key: string): Promise<void> {
  await db.delete(abuseCounters).where(eq(abuseCounters.key, key));
}

async function prune(db: Db, now: Date): Promise<void> {
  await db.execute(sql`
    delete from ${abuseCounters} where ${abuseCounters.key} in (
      select ${abuseCounters.key} from ${abuseCounters}
      where ${abuseCounters.windowEndsAt} < ${now.toISOString()}::timestamptz
      limit ${PRUNE_PER_NEW_WINDOW}
    )`);
}

/** Tests: every counter gone (a fresh database's state). */
export async function clearAllCounters(db: Db): Promise<void> {
  await db.delete(abuseCounters);
}

/** RATE_LIMITED with Retry-After until the window ends. */
export function limitedError(what: string, window: Window, now = new Date()): AppError {
  const retryAfter = Math.max(1, Math.ceil((window.endsAt.getTime() - now.getTime()) / 1000));
  return commonRefusal("RATE_LIMITED", "rate-limited", `too many ${what}; retry in ${retryAfter} s`, undefined, {
    "retry-after": String(retryAfter),
  });
}
