/**
 * A payment session's state machine as one pure decider: (state, fact, now) → (next state, events).
 * Every write of a session's status goes through it (session-records.ts applies what it decides,
 * under the session's row lock); the scanner, the expiry and the cancels only find facts.
 *
 *   pending ──transfers-recorded (the amount reached)──▶ completed
 *   pending ──transfers-recorded (part of it)──▶ pending, payment.partial
 *   pending ──expiry-due──▶ expired
 *   pending ──cancelled-by-merchant | cancelled-by-payer (nothing received yet)──▶ cancelled
 *   expired | cancelled ──transfers-recorded (mined in time, confirmed later)──▶ completed
 *   completed is final; a transfer that does not count only marks the session late (payment.late)
 *
 * The payment rules of docs/design.md §8: the status follows from the amount, deadline, cancellation
 * and the confirmed transfers received — nothing else (evaluateSession). Re-evaluating the
 * transfers is always safe.
 *
 * - A transfer counts when its block time is ≤ expiresAt and it was mined before the cancel: in a
 *   block ≤ the network's latest block at cancel time (cancelledAtBlock; BSC block times have
 *   one-second resolution and several blocks share a second), or — where that block could not be
 *   read — with a block time ≤ cancelledAt. Counted transfers add up: partial payments stay pending, reaching the amount
 *   completes, going over completes with `overpaid`.
 * - A transfer mined in time completes the session even if it is confirmed after expiry or after
 *   the cancel request: a paid order is never reported expired or cancelled (expired/cancelled →
 *   completed is the only move out of a terminal state).
 * - A fiat session's transfer after its deadline that was re-priced at its block's rate within the
 *   merchant's tolerance (reprice-late.ts, `repriced`) counts as if in time, at that rate.
 * - Other transfers are late: they never change the status, but are recorded and forwarded.
 * - txHash is the transfer that completed the session; before that, the first counted one.
 */

import type { PaymentSession, SessionStatus } from "../../db/schema";

export interface SessionFacts {
  amount: bigint;
  /**
   * A fiat session's tolerance (docs/design.md §23): short of the amount by less than this many basis
   * points still completes it (FIAT_UNDERPAY_BPS, or its domain's). 0 or absent: the whole amount.
   */
  underpayBps?: bigint;
  /**
   * A fiat session's rounding allowance: short of the amount by at most this many base units still
   * completes it, whatever `underpayBps` says — a quote, and a credit converted between two tokens'
   * quotes, is rounded to the base unit (one per token that paid). Absent: none.
   */
  shortfallUnits?: bigint;
  expiresAt: Date;
  cancelledAt: Date | null;
  cancelledAtBlock: bigint | null;
  completedAt: Date | null;
}

export interface TransferFacts {
  id: number;
  txHash: string;
  blockNumber: bigint;
  logIndex: number;
  blockTimestamp: Date;
  amount: bigint;
  /**
   * Mined after the deadline, re-priced at its block's rate within the merchant's tolerance
   * (reprice-late.ts): it counts even though it is after the deadline (never after a cancel).
   */
  repriced?: boolean;
}

export interface SessionEvaluation {
  status: SessionStatus;
  receivedAmount: bigint;
  overpaid: boolean;
  txHash: string | null;
  completedAt: Date | null;
  lateTransferIds: number[];
}

export function evaluateSession(session: SessionFacts, transfers: TransferFacts[], now: Date): SessionEvaluation {
  const ordered = [...transfers].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  const bps = session.underpayBps ?? 0n;
  const units = session.shortfallUnits ?? 0n;
  // received > amount × (1 − bps/10,000): short by less than the tolerance; with none, received ≥ amount
  // — in both, less the rounding allowance (received + units ≥ amount).
  const paysAll = (sum: bigint) => sum + units >= session.amount || (bps > 0n && sum * 10_000n > session.amount * (10_000n - bps));
  let received = 0n;
  let firstCounted: string | null = null;
  let completing: string | null = null;
  const late: number[] = [];
  for (const transfer of ordered) {
    const afterDeadline = transfer.blockTimestamp.getTime() > session.expiresAt.getTime() && transfer.repriced !== true;
    const afterCancel =
      session.cancelledAtBlock !== null
        ? transfer.blockNumber > session.cancelledAtBlock
        : session.cancelledAt !== null && transfer.blockTimestamp.getTime() > session.cancelledAt.getTime();
    if (afterDeadline || afterCancel) {
      late.push(transfer.id);
      continue;
    }
    received += transfer.amount;
    firstCounted ??= transfer.txHash;
    if (completing === null && paysAll(received)) completing = transfer.txHash;
  }

  let status: SessionStatus;
  if (completing !== null) status = "completed";
  else if (session.cancelledAt !== null) status = "cancelled";
  else if (now.getTime() >= session.expiresAt.getTime()) status = "expired";
  else status = "pending";

  return {
    status,
    receivedAmount: received,
    overpaid: status === "completed" && received > session.amount,
    txHash: completing ?? firstCounted,
    completedAt: status === "completed" ? (session.completedAt ?? now) : null,
    lateTransferIds: late,
  };
}

export type PaymentEventType = "payment.completed" | "payment.partial" | "payment.expired" | "payment.cancelled" | "payment.late";

export interface SessionSnapshot {
  status: SessionStatus;
  receivedAmount: bigint;
}

/**
 * What the shop is told about one change of a session (docs/design.md §15), in order: money that
 * counts but does not complete (`partial`), the new status, then deposits that arrived after a
 * terminal state or do not count (`late`). A re-evaluation that changes nothing says nothing.
 */
export function paymentEvents(
  before: SessionSnapshot,
  after: SessionSnapshot,
  newDeposits: { late: number; counted: number } = { late: 0, counted: 0 },
): PaymentEventType[] {
  const events: PaymentEventType[] = [];
  const statusChanged = after.status !== before.status;
  if (after.receivedAmount > before.receivedAmount && after.status !== "completed") events.push("payment.partial");
  if (statusChanged && after.status !== "pending") events.push(`payment.${after.status}`);
  const afterCompletion = before.status === "completed" && newDeposits.counted > 0;
  if (newDeposits.late > 0 || afterCompletion) events.push("payment.late");
  return events;
}

/** What the decider needs of a session row. */
export type SessionState = Pick<
  PaymentSession,
  "status" | "amount" | "expiresAt" | "cancelledAt" | "cancelledAtBlock" | "completedAt" | "expiredAt" | "receivedAmount"
>;

export type SessionFact =
  /**
   * The scanner recorded transfers into its address. `counted`: every transfer of the session's
   * token the address has received; `otherTokenIds`: those of other tokens (they pay nothing, and
   * are still forwarded); `freshIds`: the deposits this recording added.
   */
  | {
      kind: "transfers-recorded";
      counted: TransferFacts[];
      otherTokenIds: number[];
      freshIds: number[];
      /**
       * A fiat session: the offered token it settles in (that of its first counted deposit) with that
       * token's quote; `counted` amounts are then in this token's units (fiat-settlement.ts).
       */
      settle?: Settlement;
    }
  /** Its deadline may have passed (decided against `now`). */
  | { kind: "expiry-due" }
  /** The merchant cancelled it (API or dashboard). `atBlock`: the network's latest block then, if it could be read. */
  | { kind: "cancelled-by-merchant"; atBlock: bigint | null }
  /** The payer cancelled it on the checkout page: only while nothing has arrived (the shop holds part-payments). */
  | { kind: "cancelled-by-payer"; atBlock: bigint | null };

/** A fiat session's token and amount to pay, at its locked quote. */
export interface Settlement {
  tokenId: number;
  amount: bigint;
  rate: string;
  /** Where the rate came from and when (the quote's, or the re-pricing block's). */
  rateSource?: string;
  ratedAt?: Date;
  underpayBps: bigint;
  /** Base units it may be short by for the quotes' rounding (SessionFacts.shortfallUnits). */
  shortfallUnits?: bigint;
}

/** The row's new state; fields left undefined stay as they are. */
export interface SessionChange {
  status: SessionStatus;
  /** A fiat session settling in another of its offered tokens. */
  tokenId?: number;
  amount?: bigint;
  rate?: string;
  rateSource?: string;
  ratedAt?: Date;
  receivedAmount?: bigint;
  overpaid?: boolean;
  late?: boolean;
  lateAmount?: bigint;
  txHash?: string | null;
  completedAt?: Date | null;
  expiredAt?: Date | null;
  cancelledAt?: Date;
  cancelledAtBlock?: bigint | null;
  /** Deposits that do not count toward it (after its deadline or cancel, or another token): marked late. */
  lateDepositIds?: number[];
}

export type SessionDecision =
  | { accepted: true; next: SessionChange; events: PaymentEventType[] }
  /** The fact does not apply to this state: nothing changes. */
  | { accepted: false; why: string };

export function decideSession(state: SessionState, fact: SessionFact, now: Date): SessionDecision {
  const refuse = (why = `${fact.kind} does not apply to a ${state.status} session`): SessionDecision => ({ accepted: false, why });
  const to = (next: SessionChange, newDeposits?: { late: number; counted: number }): SessionDecision => ({
    accepted: true,
    next,
    events: paymentEvents(state, { status: next.status, receivedAmount: next.receivedAmount ?? state.receivedAmount }, newDeposits),
  });
  const due = now.getTime() >= state.expiresAt.getTime();
  switch (fact.kind) {
    case "transfers-recorded": {
      const settle = fact.settle;
      const basis = settle
        ? { ...state, amount: settle.amount, underpayBps: settle.underpayBps, shortfallUnits: settle.shortfallUnits }
        : state;
      const result = evaluateSession(basis, fact.counted, now);
      const late = new Set(result.lateTransferIds);
      const lateAmount = fact.counted.filter((t) => late.has(t.id)).reduce((sum, t) => sum + t.amount, 0n);
      for (const id of fact.otherTokenIds) late.add(id);
      const freshLate = fact.freshIds.filter((id) => late.has(id)).length;
      return to(
        {
          status: result.status,
          receivedAmount: result.receivedAmount,
          overpaid: result.overpaid,
          late: late.size > 0,
          lateAmount,
          txHash: result.txHash,
          completedAt: result.completedAt,
          expiredAt: result.status === "expired" ? (state.expiredAt ?? now) : state.expiredAt,
          lateDepositIds: [...result.lateTransferIds, ...fact.otherTokenIds],
          ...(settle
            ? { tokenId: settle.tokenId, amount: settle.amount, rate: settle.rate, rateSource: settle.rateSource, ratedAt: settle.ratedAt }
            : {}),
        },
        { late: freshLate, counted: fact.freshIds.length - freshLate },
      );
    }
    case "expiry-due":
      return state.status === "pending" && due ? to({ status: "expired", expiredAt: now }) : refuse();
    case "cancelled-by-merchant":
    case "cancelled-by-payer":
      if (state.status !== "pending" || due) return refuse();
      // Part-payments are the shop's to settle: the payer may only walk away from an untouched session.
      if (fact.kind === "cancelled-by-payer" && state.receivedAmount > 0n) return refuse("part of the payment has arrived");
      return to({ status: "cancelled", cancelledAt: now, cancelledAtBlock: fact.atBlock });
  }
}
