/**
 * A refund's money goes out as a payout (lib/domain/transfers) and follows it: sent after its recording
 * transaction commits, and settled with it — `settleRefundOf` is the `onSettled` the withdrawal
 * confirmer is given (lib/ops/jobs/steps.ts). A request that waits for a refused send to settle
 * settles the refund itself afterwards; the job's catch-up (`settleRefundsOfSettledPayouts`) covers
 * a process that stopped in between. Nothing here hands a callback to lib/domain/withdrawals.
 */

import { and, eq, inArray } from "drizzle-orm";
import type { Address } from "viem";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { type PaymentSession, type RecordedWithdrawal, type Refund, refunds, type Withdrawal, withdrawals } from "../../db/schema";
import type { TransferRequest } from "../transfers/record-transfer";
import { sendRecorded } from "../transfers/send-transfer";
import { awaitSettlement } from "../withdrawals/confirm-withdrawals";
import { withdrawalRefusal } from "../withdrawals/reasons";
import { applyRefundFact } from "./refund-records";
import { sessionDomain } from "./refund-rules";

/** The idempotency scope of POST /payment/{sessionId}/refund and the dashboard's refund form. */
export const REFUND_SCOPE = "payment.refund";

/** In the transaction that settles the withdrawal: both change together, and the event with them. */
export async function settleRefundOf(tx: Db, withdrawal: Pick<Withdrawal, "refundId" | "status" | "failureReason">): Promise<void> {
  if (withdrawal.refundId === null || withdrawal.status === "submitted") return;
  await applyRefundFact(
    tx,
    withdrawal.refundId,
    withdrawal.status === "completed"
      ? { kind: "withdrawal-completed" }
      : { kind: "withdrawal-failed", reason: withdrawal.failureReason ?? "the transfer failed" },
  );
}

/**
 * Sends a refund's recorded payout. A node that refuses it for good: its nonce is filled and the
 * request waits (briefly) for that to settle; "nothing was sent" then answers BLOCKCHAIN_ERROR,
 * the refund failed with its withdrawal.
 */
export async function sendRefundPayout(db: Db, payout: RecordedWithdrawal): Promise<void> {
  if ((await sendRecorded(db, payout)) !== "refused") return;
  const settled = await awaitSettlement(db, payout.id);
  // The refund follows its settled payout (if this process stops first, the job's catch-up does it).
  if (settled && settled.status !== "submitted") await db.transaction((tx) => settleRefundOf(tx, settled));
  if (settled?.status === "failed") {
    throw withdrawalRefusal(
      "BLOCKCHAIN_ERROR",
      "withdrawal-failed",
      `${settled.failureReason ?? "the network refused the transaction"} (withdrawal ${payout.id} failed)`,
    );
  }
}

/** A refund's payout: from the payment's domain wallet, in the payment's token, on the refund's account. */
export function refundPayout(
  session: Pick<PaymentSession, "id" | "domainId" | "tokenId">,
  refund: Pick<Refund, "id" | "userId" | "apiKeyId" | "amount">,
  decimals: number,
  to: Address,
): TransferRequest {
  return {
    wallet: { domainId: sessionDomain(session) },
    tokenId: session.tokenId,
    to,
    amount: formatAmount(refund.amount, decimals),
    for: { userId: refund.userId, apiKeyId: refund.apiKeyId, refundId: refund.id },
  };
}

/**
 * Job step (tend-ledger, after the confirmer): refunds still `sending` whose payout is final — a
 * request settled its own refused payout and stopped before the refund followed. Idempotent: the
 * refund's decider takes a payout's outcome once.
 */
export async function settleRefundsOfSettledPayouts(db: Db): Promise<number> {
  const behind = await db
    .select({ withdrawal: withdrawals })
    .from(withdrawals)
    .innerJoin(refunds, eq(refunds.id, withdrawals.refundId))
    .where(and(eq(refunds.status, "sending"), inArray(withdrawals.status, ["completed", "failed"])));
  for (const { withdrawal } of behind) await db.transaction((tx) => settleRefundOf(tx, withdrawal));
  return behind.length;
}
