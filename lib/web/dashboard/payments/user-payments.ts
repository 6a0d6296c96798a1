/**
 * A merchant's payments across all their API keys, for the dashboard: filters, search, pages and
 * a streamed CSV of the same set. Records of other users never appear (every query is scoped).
 */

import { and, eq, gt, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { isCursor } from "../../../base/cursor";
import { formatAmount } from "../../../base/money";
import type { Db } from "../../../db";
import { type KeysetPage, keysetBounds, reachedNewest } from "../../../db/keyset";
import { type PaymentSession, paymentSessions, refunds, SESSION_STATUSES, tokens } from "../../../db/schema";
import { expireSessionsWhere } from "../../../domain/payments/session-records";
import { fiatValueReceived } from "../../../domain/payments/session-tallies";
import { FIAT_MINOR_UNITS, formatFiatAmount } from "../../../domain/pricing/fiat";
import { minorDigitsOf, pegValue } from "../account/account-value";
import { searchCondition } from "./payment-search";

const optionalInt = z.preprocess(
  (v) => (v === "" || v === undefined || v === null ? undefined : v),
  z.coerce.number().int().positive().optional(),
);
/** YYYY-MM-DD, or YYYYMMDD (digits only, what a phone's number pad types) written back with its dashes; a real calendar day. */
const optionalDate = z.preprocess(
  (v) =>
    v === "" || v === undefined || v === null
      ? undefined
      : typeof v === "string"
        ? v.trim().replace(/^(\d{4})(\d{2})(\d{2})$/, "$1-$2-$3")
        : v,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "dates are YYYY-MM-DD" })
    .refine((v) => isCalendarDay(v), { message: "not a date" })
    .optional(),
);

/** 2026-02-30 parses (as March 2nd): only a day that reads back the same is one. */
function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

const optionalCursor = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  z
    .string()
    .refine((v) => isCursor(v), { message: "not a page of this list (follow Newer or Older again)" })
    .optional(),
);

function withoutControlCharacters(text: string): string {
  return Array.from(text)
    .filter((c) => c.charCodeAt(0) > 0x1f && c !== "\u007f")
    .join("");
}

export const paymentFiltersSchema = z.object({
  status: z.preprocess((v) => (v === "" ? undefined : v), z.enum(SESSION_STATUSES).optional()),
  tokenId: optionalInt,
  domainId: optionalInt,
  /** Payments made through this payment link (a link of another user matches nothing). */
  linkId: optionalInt,
  from: optionalDate,
  to: optionalDate,
  /** What the search box reads (payment-search.ts); control characters are dropped, never sent to the database. */
  q: z.preprocess(
    (v) => (typeof v === "string" ? withoutControlCharacters(v).trim().slice(0, 100) || undefined : undefined),
    z.string().optional(),
  ),
  /** Kept so old links parse; the list pages by cursor (`after`/`before`) and the page redirects a `page` to the newest page. */
  page: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.number().int().min(1).max(100_000).default(1)),
  /** The page of payments older than this cursor (a page's `older`). */
  after: optionalCursor,
  /** The page of payments newer than this cursor (a page's `newer`). */
  before: optionalCursor,
  limit: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.number().int().min(1).max(100).default(25)),
});
export type PaymentFilters = z.output<typeof paymentFiltersSchema>;

export interface UserPaymentRow {
  sessionId: string;
  status: PaymentSession["status"];
  amount: string;
  receivedAmount: string | null;
  token: string;
  network: string;
  domainId: number | null;
  depositAddress: string;
  txHash: string | null;
  overpaid: boolean;
  late: boolean;
  createdAt: string;
  expiresAt: string;
  completedAt: string | null;
  orderId: string | null;
  description: string | null;
  metadata: Record<string, unknown> | null;
  /** The payment link whose page created it, or null. */
  paymentLinkId: number | null;
  /** A fiat-priced session's currency and price ("25.00"), and the rate of its token (amount's); null when priced in a token. */
  currency: string | null;
  fiatAmount: string | null;
  rate: string | null;
  /**
   * What it received, valued from what is recorded (account/account-value.ts): a fiat-priced payment at its
   * locked rate in its currency, a USD stablecoin 1:1 USD; null when nothing was received or the
   * token has no value (BNB, a token without a peg).
   */
  value: string | null;
  valueCurrency: string | null;
}

/** A row of the dashboard's list: with its refunds — sent back (completed), and still under way (waiting for the payer's address, or sending); null when none. */
export type ListedPaymentRow = UserPaymentRow & { refunds: { refunded: string | null; pending: string | null } };

export function paymentsWhere(userId: number, f: PaymentFilters): SQL {
  const conditions: (SQL | undefined)[] = [eq(paymentSessions.userId, userId)];
  if (f.status) conditions.push(eq(paymentSessions.status, f.status));
  if (f.tokenId) conditions.push(eq(paymentSessions.tokenId, f.tokenId));
  if (f.domainId) conditions.push(eq(paymentSessions.domainId, f.domainId));
  if (f.linkId) conditions.push(eq(paymentSessions.paymentLinkId, f.linkId));
  if (f.from) conditions.push(gte(paymentSessions.createdAt, new Date(`${f.from}T00:00:00Z`)));
  if (f.to) conditions.push(lt(paymentSessions.createdAt, new Date(Date.parse(`${f.to}T00:00:00Z`) + 86_400_000)));
  if (f.q) conditions.push(searchCondition(userId, f.q));
  // biome-ignore lint/style/noNonNullAssertion: conditions starts with the user's own, so and() has a condition to return: every query is scoped
  return and(...conditions)!;
}

/** Whether the session's token is a USD stablecoin in the operator's catalogue (valued 1:1 USD). */
export const tokenUsdPegged = sql<boolean>`exists (select 1 from token_catalogue c
  where c.network = ${tokens.network} and c.contract_address = ${tokens.contractAddress} and c.usd_pegged)`;

export const rowSelection = {
  session: paymentSessions,
  token: { symbol: tokens.symbol, decimals: tokens.decimals, usdPegged: tokenUsdPegged },
};

export type SessionRow = { session: PaymentSession; token: { symbol: string; decimals: number; usdPegged: boolean } };
type RefundTotals = Map<string, { refunded: bigint; pending: bigint }>;

/**
 * What the listed payments refunded, in one grouped query over their ids (never one per row). An
 * unclaimed refund whose claim has expired counts as nothing: it sends nothing (it is marked
 * cancelled when next read).
 */
async function refundTotals(db: Db, userId: number, sessionIds: string[]): Promise<RefundTotals> {
  if (sessionIds.length === 0) return new Map();
  const now = new Date();
  const rows = await db
    .select({
      sessionId: refunds.sessionId,
      refunded: sql<string | null>`sum(${refunds.amount}) filter (where ${refunds.status} = 'completed')`,
      pending: sql<
        string | null
      >`sum(${refunds.amount}) filter (where ${refunds.status} in ('sending', 'awaiting_funds') or (${refunds.status} = 'awaiting_address' and ${gt(refunds.claimExpiresAt, now)}))`,
    })
    .from(refunds)
    .where(and(eq(refunds.userId, userId), inArray(refunds.sessionId, sessionIds)))
    .groupBy(refunds.sessionId);
  return new Map(rows.map((r) => [r.sessionId, { refunded: BigInt(r.refunded ?? 0), pending: BigInt(r.pending ?? 0) }]));
}

function withRefunds(rows: SessionRow[], totals: RefundTotals): ListedPaymentRow[] {
  return rows.map((row) => {
    const t = totals.get(row.session.id);
    const shown = (units: bigint | undefined) => (units ? formatAmount(units, row.token.decimals) : null);
    return { ...toRow(row), refunds: { refunded: shown(t?.refunded), pending: shown(t?.pending) } };
  });
}

export function toRow({ session, token }: SessionRow): UserPaymentRow {
  return {
    sessionId: session.id,
    status: session.status === "pending" && session.expiresAt.getTime() <= Date.now() ? "expired" : session.status,
    amount: formatAmount(session.amount, token.decimals),
    receivedAmount: session.receivedAmount > 0n ? formatAmount(session.receivedAmount, token.decimals) : null,
    token: token.symbol,
    network: session.network,
    domainId: session.domainId,
    depositAddress: session.depositAddress,
    txHash: session.txHash,
    overpaid: session.overpaid,
    late: session.late,
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    completedAt: session.completedAt?.toISOString() ?? null,
    orderId: session.orderId,
    description: session.description,
    metadata: (session.metadata as Record<string, unknown> | null) ?? null,
    paymentLinkId: session.paymentLinkId,
    currency: session.currency,
    fiatAmount: fiatAmountText(session.currency, session.fiatAmount),
    rate: session.currency === null ? null : session.rate,
    ...recordedValue({ session, token }),
  };
}

/** The row's value and its currency (UserPaymentRow.value). */
function recordedValue({ session, token }: SessionRow): { value: string | null; valueCurrency: string | null } {
  if (session.receivedAmount <= 0n) return { value: null, valueCurrency: null };
  const recorded =
    session.currency !== null
      ? { currency: session.currency, minor: fiatValueReceived(session) }
      : pegValue(session.receivedAmount, token.decimals, token.usdPegged);
  if (!recorded) return { value: null, valueCurrency: null };
  return { value: formatFiatAmount(recorded.minor, minorDigitsOf(recorded.currency)), valueCurrency: recorded.currency };
}

/** "25.00" in the currency's minor units; null for a token-priced session. */
export function fiatAmountText(currency: string | null, minor: bigint | null): string | null {
  return currency === null || minor === null ? null : formatFiatAmount(minor, FIAT_MINOR_UNITS[currency] ?? 2);
}

/**
 * One page of the filtered payments, newest first, by keyset: the `after`/`before` cursor bounds
 * the index (user_id, created_at desc, id desc), so a deep page reads no more rows than the first,
 * and nothing counts the history (the page shows no total).
 */
export async function listUserPayments(db: Db, userId: number, filters: PaymentFilters): Promise<KeysetPage<ListedPaymentRow>> {
  await expireDue(db, userId);
  const query = { limit: filters.limit, after: filters.after, before: filters.before };
  const page = await readPage(db, userId, filters, query);
  // Newer from the second page once payments arrived in between: show the newest full page.
  const shown = reachedNewest(query, page) ? await readPage(db, userId, filters, { limit: filters.limit }) : page;
  const totals = await refundTotals(
    db,
    userId,
    shown.items.map((r) => r.session.id),
  );
  return { ...shown, items: withRefunds(shown.items, totals) };
}

async function readPage(db: Db, userId: number, filters: PaymentFilters, query: Parameters<typeof keysetBounds>[1]) {
  const keyset = keysetBounds({ createdAt: paymentSessions.createdAt, id: paymentSessions.id }, query);
  const rows = await db
    .select({ ...rowSelection, cursorTime: keyset.cursorTime })
    .from(paymentSessions)
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .where(and(paymentsWhere(userId, filters), keyset.where))
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
  return keyset.pageOf(rows, (row) => ({ createdAt: row.cursorTime, id: row.session.id }));
}

export const CSV_COLUMNS: (keyof UserPaymentRow)[] = [
  "sessionId",
  "orderId",
  "description",
  "createdAt",
  "status",
  "amount",
  "receivedAmount",
  "token",
  "network",
  "domainId",
  "depositAddress",
  "txHash",
  "overpaid",
  "late",
  "expiresAt",
  "completedAt",
  "currency",
  "fiatAmount",
  "rate",
  "valueCurrency",
  "value",
];

async function expireDue(db: Db, userId: number): Promise<void> {
  await expireSessionsWhere(db, eq(paymentSessions.userId, userId));
}
