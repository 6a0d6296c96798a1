/**
 * A withdrawal above the account's approval threshold (lib/domain/approval-requests): recorded
 * `awaiting_approval` without a transaction — no nonce, no signed bytes, no ledger row, no gas
 * top-up — with its approval request, in one transaction. Once a second member approves, the
 * approval's compare-and-set and the withdrawal's ledger row are written in one transaction
 * (`approveWithdrawal`): of two concurrent approvals one records it, the other finds it decided.
 * The wallet is checked then, not before: a wallet that cannot pay it at approval fails it
 * (`refused-at-approval`, withdrawal.failed, nothing sent). Rejected or expired: `rejected`, final.
 */

import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { AppError } from "../../base/errors";
import { log } from "../../base/log";
import { formatAmount, parseAmount } from "../../base/money";
import type { Db } from "../../db";
import type { Approval, Withdrawal } from "../../db/schema";
import { isRecordedWithdrawal, withdrawals } from "../../db/schema";
import { approvalNeeded } from "../approval-requests/approval-needed";
import { requestApproval } from "../approval-requests/approval-records";
import { findOwnToken } from "../tokens/find-own-token";
import { checkTransfer, reserveTransfer, signTransfer, type TransferRequest } from "../transfers/record-transfer";
import { sendRecorded, withGasTopUps } from "../transfers/send-transfer";
import type { SendWithdrawalInput } from "./schemas";
import type { WithdrawalSender } from "./send-withdrawal";
import { applyWithdrawalFact, insertAwaitingWithdrawal } from "./withdrawal-records";

/** Whether this request must wait for a second member (a malformed one is left to the normal path's refusals). */
export async function needsApproval(db: Db, sender: WithdrawalSender, input: SendWithdrawalInput, now = new Date()): Promise<boolean> {
  const token = await findOwnToken(db, sender.userId, input.tokenId);
  if (!token) return false;
  const units = parseAmount(input.amount, token.decimals);
  if (typeof units === "string") return false;
  return (await approvalNeeded(db, sender.userId, token.id, units, now)).needed;
}

/** In `db`'s transaction: the checks a send makes before the chain, then the waiting withdrawal and its approval request. */
export async function recordAwaitingWithdrawal(
  db: Db,
  sender: WithdrawalSender,
  input: SendWithdrawalInput,
  now = new Date(),
): Promise<{ withdrawal: Withdrawal; tokenSymbol: string; tokenDecimals: number }> {
  return db.transaction(async (tx) => {
    const { token, units, from } = await checkTransfer(tx, requestOf(sender, input));
    const withdrawal = await insertAwaitingWithdrawal(
      tx,
      {
        userId: sender.userId,
        apiKeyId: sender.apiKeyId,
        domainId: input.domainId,
        tokenId: token.id,
        network: token.network,
        fromAddress: from,
        toAddress: input.toAddress,
        amount: units,
      },
      now,
    );
    await requestApproval(
      tx,
      {
        accountId: sender.userId,
        kind: "withdrawal",
        subjectId: withdrawal.id,
        domainId: input.domainId,
        tokenId: token.id,
        amount: units,
        requestedBy: { userId: sender.memberId ?? null, apiKeyId: sender.apiKeyId },
      },
      now,
    );
    return { withdrawal, tokenSymbol: token.symbol, tokenDecimals: token.decimals };
  });
}

/** What the subject of an approval answers once the approval is decided. */
export interface SubjectOutcome {
  status: string;
  reason: string | null;
}

/**
 * Approves a waiting withdrawal: `claim` (the approval's compare-and-set) first, then the payout's
 * checks, signature and ledger row, then the withdrawal awaiting_approval → submitted — one
 * transaction, topped up with gas and run again when the wallet lacks BNB. Sent once committed.
 */
export async function approveWithdrawal(db: Db, approval: Approval, claim: (tx: Db) => Promise<Approval>): Promise<SubjectOutcome> {
  const waiting = await withdrawalOf(db, approval);
  const token = await findOwnToken(db, waiting.userId, waiting.tokenId);
  if (!token) throw new Error(`withdrawal ${waiting.id} names no token of its account`);
  const input: SendWithdrawalInput = {
    domainId: waiting.domainId,
    tokenId: waiting.tokenId,
    toAddress: waiting.toAddress as Address,
    amount: formatAmount(waiting.amount, token.decimals),
  };
  try {
    const recorded = await withGasTopUps(db, (afterTopUp) =>
      db.transaction(async (tx) => {
        await claim(tx);
        // Its row, awaiting approval since the request, already counts among the day's withdrawals.
        const reserved = await reserveTransfer(tx, requestOf(waiting, input), { afterTopUp, counted: true }).catch((error: unknown) => {
          throw error instanceof AppError ? new RefusedAtApproval(error) : error;
        });
        const signed = await signTransfer(tx, reserved);
        const { written } = await applyWithdrawalFact(tx, waiting, { kind: "approved" }, { signed });
        if (!written || !isRecordedWithdrawal(written)) throw new Error(`withdrawal ${waiting.id} was not awaiting approval`);
        return written;
      }),
    );
    const sent = await sendRecorded(db, recorded);
    if (sent !== "sent")
      log.warn({ withdrawalId: recorded.id, sent }, "an approved withdrawal was not sent at once; the ledger sends or settles it");
    return { status: recorded.status, reason: null };
  } catch (error) {
    if (!(error instanceof RefusedAtApproval) && !(error instanceof AppError && error.reason === "wallet-short-of-gas")) throw error;
    const reason = `refused when approved: ${error.message}`;
    await db.transaction(async (tx) => {
      await claim(tx);
      await applyWithdrawalFact(tx, waiting, { kind: "refused-at-approval", reason });
    });
    return { status: "failed", reason };
  }
}

/** In the transaction that rejected or expired the approval: the withdrawal is rejected, never sent. */
export async function closeWithdrawal(tx: Db, approval: Approval): Promise<SubjectOutcome> {
  const waiting = await withdrawalOf(tx, approval);
  const reason = approval.status === "expired" ? "its approval expired" : `rejected${approval.reason ? `: ${approval.reason}` : ""}`;
  await applyWithdrawalFact(tx, waiting, { kind: "rejected", reason });
  return { status: "rejected", reason };
}

class RefusedAtApproval extends Error {
  constructor(readonly cause: AppError) {
    super(cause.message);
  }
}

async function withdrawalOf(db: Db, approval: Approval): Promise<Withdrawal> {
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, approval.subjectId));
  if (!row) throw new Error(`approval ${approval.id} names no withdrawal`);
  return row;
}

function requestOf(sender: Pick<WithdrawalSender, "userId" | "apiKeyId">, input: SendWithdrawalInput): TransferRequest {
  return {
    wallet: { domainId: input.domainId },
    tokenId: input.tokenId,
    to: input.toAddress,
    amount: input.amount,
    for: { userId: sender.userId, apiKeyId: sender.apiKeyId },
  };
}
