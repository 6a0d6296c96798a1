/**
 * A refund above the account's approval threshold is approved together with where it goes
 * (docs/design.md §26: the approval's content is the destination, token and amount). Made with the
 * merchant's address it waits `awaiting_approval` at once (create-refund.ts: no payout, no
 * refund.created); made without one, its claim opens first and the payer's claimed address goes
 * `awaiting_approval` (requestClaimApproval, in the claim's transaction) — nothing is reserved or
 * signed before a second member approves. Once approved, in the transaction of the approval's
 * compare-and-set, its payout is recorded and sent to exactly that address, or it waits for the
 * funds. A payout refused at approval for another reason fails it (refund.failed, nothing sent).
 * Rejected or expired: `rejected`. A refund waiting for approval without an address (asked for
 * before this rule) is never approved: it is rejected, and made again.
 */

import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { getConfig } from "../../base/config";
import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { type Approval, type PaymentSession, paymentSessions, type Refund, refunds, tokens } from "../../db/schema";
import { requestApproval } from "../approval-requests/approval-records";
import { recordTransfer, reserveTransfer } from "../transfers/record-transfer";
import { withGasTopUps } from "../transfers/send-transfer";
import { awaitingFundsReason, isShortOfTokens } from "./awaiting-funds";
import { refundRefusal } from "./reasons";
import { refundPayout, sendRefundPayout } from "./refund-payouts";
import { applyRefundFact } from "./refund-records";
import { sessionDomain } from "./refund-rules";
import type { RefundFact } from "./refund-state";

export interface RefundOutcome {
  status: string;
  reason: string | null;
}

export async function approveRefund(db: Db, approval: Approval, claim: (tx: Db) => Promise<Approval>): Promise<RefundOutcome> {
  const { refund, session, token } = await refundOf(db, approval);
  const claimExpiresAt = new Date(Date.now() + getConfig().refundClaimTtlSeconds * 1000);
  const toAddress = refund.toAddress as Address | null;
  if (toAddress === null) {
    // Nothing changes: an amount is never approved without where it goes (the decider refuses it too).
    throw refundRefusal(
      "VALIDATION_ERROR",
      "refund-approval-without-address",
      "this refund was asked for before refunds were approved with their destination: reject it and create it again (its payer's address then comes to approval)",
    );
  }
  try {
    const payout = await withGasTopUps(db, (afterTopUp) =>
      db.transaction(async (tx) => {
        await claim(tx);
        const reserved = await reserveTransfer(tx, refundPayout(session, refund, token.decimals, toAddress), { afterTopUp }).catch(
          (error: unknown) => {
            throw error instanceof AppError ? new RefusedAtApproval(error) : error;
          },
        );
        const recorded = await recordTransfer(tx, reserved);
        // After the payout: refund.created names its withdrawal.
        await apply(tx, refund, { kind: "approved", to: "sending", claimExpiresAt });
        return recorded;
      }),
    );
    // A node that refuses it for good fails the refund with its payout; the approval stands.
    await sendRefundPayout(db, payout).catch(() => undefined);
    return { status: "sending", reason: null };
  } catch (error) {
    const refusal = error instanceof RefusedAtApproval ? error.cause : error;
    if (!(refusal instanceof AppError)) throw error;
    if (refusal.reason === "approval-decided" || refusal.reason === "approval-expired") throw refusal;
    if (isShortOfTokens(refusal)) {
      const reason = await awaitingFundsReason(db, session.id, refusal, token);
      await db.transaction(async (tx) => {
        await claim(tx);
        await apply(tx, refund, { kind: "approved", to: "awaiting_funds", claimExpiresAt, reason });
      });
      return { status: "awaiting_funds", reason };
    }
    const reason = `refused when approved: ${refusal.message}`;
    await db.transaction(async (tx) => {
      await claim(tx);
      await apply(tx, refund, { kind: "refused-at-approval", reason });
    });
    return { status: "failed", reason };
  }
}

/**
 * In the claim's transaction, once the refund moved to awaiting_approval with the payer's address:
 * its approval, asked for by the refund's creator (the member, or the API key).
 */
export async function requestClaimApproval(tx: Db, refund: Refund, session: Pick<PaymentSession, "id" | "domainId" | "tokenId">) {
  return requestApproval(tx, {
    accountId: refund.userId,
    kind: "refund",
    subjectId: refund.id,
    domainId: sessionDomain(session),
    tokenId: session.tokenId,
    amount: refund.amount,
    // The member behind the request, the API key's creator included: they cannot approve it (docs/design.md §26).
    requestedBy: { userId: refund.createdBy, apiKeyId: refund.apiKeyId },
  });
}

/** In the transaction that rejected or expired the approval. */
export async function closeRefund(tx: Db, approval: Approval): Promise<RefundOutcome> {
  const { refund } = await refundOf(tx, approval);
  const reason = approval.status === "expired" ? "its approval expired" : `rejected${approval.reason ? `: ${approval.reason}` : ""}`;
  await apply(tx, refund, { kind: "rejected", reason });
  return { status: "rejected", reason };
}

class RefusedAtApproval extends Error {
  constructor(readonly cause: AppError) {
    super(cause.message);
  }
}

async function apply(tx: Db, refund: Refund, fact: RefundFact): Promise<void> {
  const applied = await applyRefundFact(tx, refund.id, fact, { lock: true });
  if (!applied.written) throw new Error(`refund ${refund.id}: ${applied.decision.accepted ? "moved meanwhile" : applied.decision.why}`);
}

async function refundOf(db: Db, approval: Pick<Approval, "id" | "subjectId">) {
  const [row] = await db
    .select({ refund: refunds, session: paymentSessions, token: tokens })
    .from(refunds)
    .innerJoin(paymentSessions, eq(paymentSessions.id, refunds.sessionId))
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .where(eq(refunds.id, approval.subjectId));
  if (!row) throw new Error(`approval ${approval.id} names no refund`);
  return row;
}
