/**
 * The one writer of a refund's state. A caller finds a fact; refund-state.ts decides what it does
 * to the refund; this writes that decision as a compare-and-set on the status it was decided
 * from, with the decision's webhook events in the same transaction. Only this file writes
 * refunds.status (tests/unit/status-writes.test.ts holds that).
 *
 * Expiry is decided with the database's clock, read in the statement that reads the row: the
 * claim, the lazy expiry and the refund that counts what is still free all use that one clock.
 */
import { and, eq, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type Refund, refunds } from "../../db/schema";
import { enqueueRefundEvent } from "./refund-events";
import { decideRefund, type RefundChange, type RefundDecision, type RefundEvent, type RefundFact } from "./refund-state";

/** now() of the database, in ms: in a transaction, its start — the same instant every statement of it compares with. */
const DB_NOW = sql<number>`(extract(epoch from now()) * 1000)::float8`.mapWith(Number);

export interface NewRefund {
  id: string;
  sessionId: string;
  userId: number;
  apiKeyId: number | null;
  /** The member behind the request (on the dashboard, or the API key's creator). */
  createdBy: number | null;
  amount: bigint;
  toAddress: string | null;
  claimExpiresAt: Date;
  /** A claim's link secret, hashed (claim-secret.ts); null when it has an address. */
  claimSecretHash: string | null;
  /** A fiat-priced payment's refund: its basis, and for "fiat" the rate it used (refund-rate.ts). */
  basis?: Refund["basis"];
  currency?: string;
  fiatAmount?: bigint;
  rate?: string;
  rateSource?: string;
  ratedAt?: Date;
}

/**
 * Records a new refund as the decider creates it. Its events (refund.created) are returned, not
 * sent: a refund sent at once announces itself once its withdrawal is recorded (emitRefundEvents).
 * `awaitingFunds`: the wallet cannot pay it yet (why); it is recorded waiting for the funds.
 * `awaitingApproval`: above the approval threshold — with an address it waits for a second member;
 * without one its claim opens and the payer's address goes to approval (approvalOnClaim).
 */
export async function insertRefund(
  tx: Db,
  values: NewRefund,
  now: Date,
  options: { awaitingFunds?: string; awaitingApproval?: boolean } = {},
): Promise<{ refund: Refund; events: RefundEvent[] }> {
  const { toAddress, claimExpiresAt } = values;
  const fact: RefundFact =
    options.awaitingApproval && toAddress !== null
      ? { kind: "create-awaiting-approval", toAddress, claimExpiresAt }
      : options.awaitingFunds !== undefined && toAddress !== null
        ? { kind: "create-awaiting-funds", toAddress, claimExpiresAt, reason: options.awaitingFunds }
        : { kind: "create", toAddress, claimExpiresAt, approvalOnClaim: options.awaitingApproval ?? false };
  const decision = decideRefund(null, fact, now);
  if (!decision.accepted) throw new Error(`refund ${values.id}: ${decision.why}`);
  const inserted = await tx
    .insert(refunds)
    .values({ ...values, ...columnsOf(decision.next), status: decision.next.status, createdAt: now, updatedAt: now })
    .returning();
  return { refund: requireRow(inserted, "insert into refunds"), events: decision.events };
}

export async function emitRefundEvents(tx: Db, refund: Refund, events: RefundEvent[], now = new Date()): Promise<void> {
  for (const event of events) await enqueueRefundEvent(tx, refund, event, now);
}

export interface AppliedRefundFact {
  decision: RefundDecision;
  /** The row as written, or as it was when the fact did not apply (null: no such refund). */
  refund: Refund | null;
  written: boolean;
}

/**
 * Reads the refund with the database's clock (locked, with `lock`, until the caller's transaction
 * ends), decides what `fact` does to it and writes that. A write that finds the status moved on
 * meanwhile changes nothing (`written: false`).
 */
export async function applyRefundFact(
  db: Db,
  refundId: string,
  fact: RefundFact,
  options: { lock?: boolean } = {},
): Promise<AppliedRefundFact> {
  const query = db.select({ refund: refunds, now: DB_NOW }).from(refunds).where(eq(refunds.id, refundId));
  const [row] = options.lock ? await query.for("no key update") : await query;
  if (!row) return { decision: { accepted: false, why: "no such refund" }, refund: null, written: false };
  return applyTo(db, row.refund, fact, new Date(row.now));
}

/**
 * awaiting_address → cancelled for every claim among `where` whose deadline has passed by the
 * database's clock. Under a session's row lock (refund-rules.ts) this is what makes a refund see
 * a claim in flight: the write waits for the claim's transaction and then finds it `sending`.
 */
export async function expireDueClaims(db: Db, where: SQL | undefined): Promise<Refund[]> {
  const due = await db
    .select({ refund: refunds, now: DB_NOW })
    .from(refunds)
    .where(and(where, eq(refunds.status, "awaiting_address"), lte(refunds.claimExpiresAt, sql`now()`)));
  const expired: Refund[] = [];
  for (const row of due) {
    const applied = await applyTo(db, row.refund, { kind: "expiry" }, new Date(row.now));
    if (applied.written && applied.refund) expired.push(applied.refund);
  }
  return expired;
}

/**
 * A new claim link: the secret's hash replaces the one stored (which voids the old link), only
 * while the refund still waits for the payer's address — a compare-and-set on that status, so a
 * link is never issued for a refund claimed or cancelled meanwhile. Null: it no longer waits.
 */
export async function replaceClaimSecret(db: Db, refundId: string, hash: string): Promise<Refund | null> {
  const [written] = await db
    .update(refunds)
    .set({ claimSecretHash: hash })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "awaiting_address")))
    .returning();
  return written ?? null;
}

async function applyTo(db: Db, current: Refund, fact: RefundFact, now: Date): Promise<AppliedRefundFact> {
  const decision = decideRefund(current, fact, now);
  if (!decision.accepted) return { decision, refund: current, written: false };
  const [written] = await db
    .update(refunds)
    .set({ ...columnsOf(decision.next), updatedAt: now })
    .where(and(eq(refunds.id, current.id), eq(refunds.status, current.status)))
    .returning();
  if (!written) return { decision, refund: current, written: false };
  await emitRefundEvents(db, written, decision.events, now);
  return { decision, refund: written, written: true };
}

function columnsOf(change: RefundChange): Partial<typeof refunds.$inferInsert> {
  const columns: Partial<typeof refunds.$inferInsert> = { status: change.status };
  if (change.toAddress !== undefined) columns.toAddress = change.toAddress;
  if (change.addressFrom !== undefined) columns.addressFrom = change.addressFrom;
  if (change.claimExpiresAt !== undefined) columns.claimExpiresAt = change.claimExpiresAt;
  if (change.approvalOnClaim !== undefined) columns.approvalOnClaim = change.approvalOnClaim;
  if (change.reason !== undefined) columns.reason = change.reason;
  if (change.completedAt !== undefined) columns.completedAt = change.completedAt;
  if (change.cancelledAt !== undefined) columns.cancelledAt = change.cancelledAt;
  return columns;
}
