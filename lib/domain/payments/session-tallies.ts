/**
 * The counters and day totals of payment sessions (lib/db/schema/payments/history-counts.ts),
 * moved in the transaction that changes the sessions: what a history's `meta.total` and the
 * overview read instead of counting or grouping payment_sessions (docs/design.md §25).
 *
 * One call per transaction, after its sessions changed: the deltas of all its sessions are summed
 * and written in one statement per table, rows in key order, so two transactions never lock
 * counter rows in opposite orders (the scanner, the expiry and a cancel may meet on the same ones).
 * insert-session.ts counts a new session in its own statement.
 */
import { and, eq, sql, sum } from "drizzle-orm";
import type { Db } from "../../db";
import { type PaymentSession, paymentDayTotals, SESSION_STATUSES, type SessionStatus, sessionCounts } from "../../db/schema";
import { countSlot, summedDeltas } from "../../db/slots";

/** A session as it was before (null: just inserted) and as it is now. */
export interface SessionMove {
  before: TalliedSession | null;
  after: TalliedSession;
}

export type TalliedSession = Pick<
  PaymentSession,
  | "userId"
  | "apiKeyId"
  | "tokenId"
  | "status"
  | "receivedAmount"
  | "completedAt"
  | "expiredAt"
  | "cancelledAt"
  | "updatedAt"
  | "currency"
  | "fiatAmount"
  | "amount"
>;

export async function tallySessionMoves(tx: Db, moves: SessionMove[]): Promise<void> {
  const counts = summedDeltas(
    moves.flatMap(({ before, after }) =>
      before?.status === after.status ? [] : [...(before ? [countEntry(before, -1n)] : []), countEntry(after, 1n)],
    ),
  );
  const days = summedDays(moves.flatMap(({ before, after }) => [...(before ? dayEntries(before, -1n) : []), ...dayEntries(after, 1n)]));
  const slot = countSlot();
  if (counts.length > 0) {
    await tx
      .insert(sessionCounts)
      .values(counts.map(({ row, delta }) => ({ ...row, slot, sessions: Number(delta) })))
      .onConflictDoUpdate({
        target: [sessionCounts.userId, sessionCounts.apiKeyId, sessionCounts.status, sessionCounts.slot],
        set: { sessions: sql`${sessionCounts.sessions} + excluded.sessions` },
      });
  }
  if (days.length > 0) {
    await tx
      .insert(paymentDayTotals)
      .values(days)
      .onConflictDoUpdate({
        target: [
          paymentDayTotals.userId,
          paymentDayTotals.day,
          paymentDayTotals.tokenId,
          paymentDayTotals.status,
          paymentDayTotals.fiatCurrency,
        ],
        set: {
          sessions: sql`${paymentDayTotals.sessions} + excluded.sessions`,
          received: sql`${paymentDayTotals.received} + excluded.received`,
          value: sql`${paymentDayTotals.value} + excluded.value`,
        },
      });
  }
}

/** How many sessions an API key (or a user, all keys and the dashboard) has, in `status` or in all. */
export async function sessionTotal(db: Db, owner: { apiKeyId: number } | { userId: number }, status?: SessionStatus): Promise<number> {
  const [row] = await db
    .select({ n: sum(sessionCounts.sessions) })
    .from(sessionCounts)
    .where(
      and(
        "apiKeyId" in owner ? eq(sessionCounts.apiKeyId, owner.apiKeyId) : eq(sessionCounts.userId, owner.userId),
        status ? eq(sessionCounts.status, status) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

/** A user's sessions by status, every key and the dashboard together. */
export async function sessionCountsOfUser(db: Db, userId: number): Promise<Record<SessionStatus, number>> {
  const rows = await db
    .select({ status: sessionCounts.status, n: sum(sessionCounts.sessions) })
    .from(sessionCounts)
    .where(eq(sessionCounts.userId, userId))
    .groupBy(sessionCounts.status);
  const counts = Object.fromEntries(SESSION_STATUSES.map((s) => [s, 0])) as Record<SessionStatus, number>;
  for (const r of rows) counts[r.status] = Number(r.n ?? 0);
  return counts;
}

function countEntry(session: TalliedSession, delta: bigint) {
  const row = { userId: session.userId, apiKeyId: session.apiKeyId, status: session.status };
  return { key: `${pad(row.userId)}|${row.apiKeyId === null ? "-" : pad(row.apiKeyId)}|${row.status}`, row, delta };
}

/** When a session reached its status, by status; null for pending (the day totals hold terminal sessions only). */
function reachedAt(session: TalliedSession): Date | null {
  const at: Record<SessionStatus, Date | null> = {
    pending: null,
    completed: session.completedAt,
    expired: session.expiredAt,
    cancelled: session.cancelledAt,
  };
  // The backfill's rule too (drizzle/0026_history_counters.sql): a terminal row without its time counts on its last update.
  return session.status === "pending" ? null : (at[session.status] ?? session.updatedAt);
}

interface DayEntry {
  key: string;
  row: { userId: number; day: string; tokenId: number; status: SessionStatus; fiatCurrency: string | null };
  sessions: bigint;
  received: bigint;
  value: bigint;
}

function dayEntries(session: TalliedSession, sign: bigint): DayEntry[] {
  const at = reachedAt(session);
  if (!at) return [];
  const row = {
    userId: session.userId,
    day: at.toISOString().slice(0, 10),
    tokenId: session.tokenId,
    status: session.status,
    // A fiat session's totals apart from the same token's token-priced ones (the table's key has the currency).
    fiatCurrency: session.currency ?? null,
  };
  const key = `${pad(row.userId)}|${row.day}|${pad(row.tokenId)}|${row.status}|${row.fiatCurrency ?? ""}`;
  return [{ key, row, sessions: sign, received: sign * session.receivedAmount, value: sign * fiatValueReceived(session) }];
}

/**
 * What a fiat-priced session received, in minor units of its currency, at its locked rate: the price
 * in proportion to the amount (⌊fiat_amount × received ÷ amount⌋; exactly the price when paid
 * exactly). 0 for a token-priced session. drizzle/0035_account_currency.sql backfills by the same rule.
 */
export function fiatValueReceived(session: Pick<TalliedSession, "currency" | "fiatAmount" | "amount" | "receivedAmount">): bigint {
  if (session.currency === null || session.fiatAmount === null || session.amount <= 0n) return 0n;
  return (session.fiatAmount * session.receivedAmount) / session.amount;
}

function summedDays(entries: DayEntry[]) {
  const sums = new Map<string, DayEntry>();
  for (const entry of entries) {
    const sum = sums.get(entry.key);
    if (sum) {
      sum.sessions += entry.sessions;
      sum.received += entry.received;
      sum.value += entry.value;
    } else sums.set(entry.key, { ...entry });
  }
  return [...sums.values()]
    .filter((e) => e.sessions !== 0n || e.received !== 0n || e.value !== 0n)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((e) => ({ ...e.row, sessions: Number(e.sessions), received: e.received, value: e.value }));
}

/** Fixed width, so keys sort as the numbers do (the order rows are locked in). */
const pad = (n: number) => String(n).padStart(12, "0");
