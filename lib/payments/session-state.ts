/**
 * The payment rules of DESIGN.md §8 as one pure function: the state of a session follows from
 * its amount, deadline, cancellation and the confirmed transfers received — nothing else. The
 * scanner records transfers and asks for a re-evaluation; re-evaluating is always safe.
 *
 * - A transfer counts when its block time is ≤ expiresAt and it was mined before the cancel: in a
 *   block ≤ the network's latest block at cancel time (cancelledAtBlock; BSC block times have
 *   one-second resolution and several blocks share a second), or — where that block could not be
 *   read — with a block time ≤ cancelledAt. Counted transfers add up: partial payments stay pending, reaching the amount
 *   completes, going over completes with `overpaid`.
 * - A transfer mined in time completes the session even if it is confirmed after expiry or after
 *   the cancel request: a paid order is never reported expired or cancelled (expired/cancelled →
 *   completed is the only move out of a terminal state).
 * - Other transfers are late: they never change the status, but are recorded and forwarded.
 * - txHash is the transfer that completed the session; before that, the first counted one.
 */

import type { SessionStatus } from "../db/schema";

export interface SessionFacts {
  amount: bigint;
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
  let received = 0n;
  let firstCounted: string | null = null;
  let completing: string | null = null;
  const late: number[] = [];
  for (const transfer of ordered) {
    const afterDeadline = transfer.blockTimestamp.getTime() > session.expiresAt.getTime();
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
    if (completing === null && received >= session.amount) completing = transfer.txHash;
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
 * What the shop is told about one change of a session (DESIGN.md §15), in order: money that
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
