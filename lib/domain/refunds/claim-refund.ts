/**
 * The payer's side of a refund: the claim page's data, and the claim — the payer gives an
 * address and the refund's payout is recorded and sent. Both need the claim link's secret
 * (claim-access.ts: a wrong one is an unknown refund). Above the approval threshold the address
 * goes to a second member instead, and nothing is signed before they approve (refund-approvals.ts). The refund moves to `sending` in
 * the payout's recording transaction, by compare-and-set: of two claims (or a claim and a
 * cancel) one wins, and an expired or cancelled claim records and sends nothing. A claim the
 * merchant's side cannot send (claim-failure.ts) changes nothing but the refund's note of it:
 * the refund still waits for a claim; a wallet short of the tokens makes it wait for them instead
 * (`awaiting_funds`, with the payer's address: sent by the job once it can). Every refusal names its problem for the page (claim-problems.ts).
 */

import { asc, eq } from "drizzle-orm";
import { type Address, zeroAddress } from "viem";
import { AppError, commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { deposits, domains, paymentSessions, withdrawals } from "../../db/schema";
import { lockAccountForMoneyOut } from "../transfers/money-out-locks";
import { recordTransfer, reserveTransfer } from "../transfers/record-transfer";
import { withGasTopUps } from "../transfers/send-transfer";
import { awaitingFundsReason, isShortOfTokens } from "./awaiting-funds";
import { assertClaimSecret } from "./claim-access";
import { claimFailure, payerProblem } from "./claim-failure";
import { claimProblemDetail } from "./claim-problems";
import { findRefund } from "./find-refund";
import { refundRefusal } from "./reasons";
import { requestClaimApproval } from "./refund-approvals";
import { refundPayout, sendRefundPayout } from "./refund-payouts";
import { applyRefundFact } from "./refund-records";
import { assertPayable, lockSession } from "./refund-rules";
import type { RefundFact } from "./refund-state";
import { type RefundView, toRefundView } from "./refund-view";

/**
 * What the claim page shows: the refund, and the address the payment came from (a hint, never used
 * silently); once sent, its transaction and when it was sent (the payout's recording, its
 * confirmation once mined) — what a payer quotes to their wallet's support or the shop. A refund in
 * fiat (basis "fiat", docs/design.md §23) adds its currency, fiat amount and rate: the page's
 * headline, with the tokens under it.
 */
export async function refundClaimPage(db: Db, refundId: string, secret: string | null | undefined) {
  await assertClaimSecret(db, refundId, secret);
  const source = await findRefund(db, "public", refundId);
  const [session] = await db
    .select({ description: paymentSessions.description, orderId: paymentSessions.orderId, origin: domains.origin })
    .from(paymentSessions)
    .leftJoin(domains, eq(domains.id, paymentSessions.domainId))
    .where(eq(paymentSessions.id, source.refund.sessionId));
  const [first] = await db
    .select({ from: deposits.fromAddress })
    .from(deposits)
    .where(eq(deposits.sessionId, source.refund.sessionId))
    .orderBy(asc(deposits.blockNumber), asc(deposits.logIndex))
    .limit(1);
  const view = toRefundView(source);
  const [payout] = source.withdrawal
    ? await db
        .select({ createdAt: withdrawals.createdAt, confirmedAt: withdrawals.confirmedAt })
        .from(withdrawals)
        .where(eq(withdrawals.id, source.withdrawal.id))
    : [];
  return {
    refundId: view.refundId,
    status: view.status,
    amount: view.amount,
    token: view.token,
    network: view.network,
    toAddress: view.toAddress,
    claimExpiresAt: view.claimExpiresAt,
    txHash: view.txHash,
    sentAt: view.txHash && payout ? (payout.confirmedAt ?? payout.createdAt).toISOString() : null,
    reason: view.status === "cancelled" || view.status === "failed" ? view.reason : null,
    description: session?.description ?? null,
    orderId: session?.orderId ?? null,
    senderHint: first?.from ?? null,
    merchant: session?.origin ? new URL(session.origin).host : null,
    ...fiatFields(view),
  };
}

function fiatFields(view: RefundView): { currency?: string; fiatAmount?: string; rate?: string } {
  return view.basis === "fiat" && view.currency && view.fiatAmount && view.rate
    ? { currency: view.currency, fiatAmount: view.fiatAmount, rate: view.rate }
    : {};
}

export type RefundClaimPage = Awaited<ReturnType<typeof refundClaimPage>>;

export async function claimRefund(db: Db, refundId: string, secret: string | null | undefined, address: Address): Promise<RefundView> {
  await assertClaimSecret(db, refundId, secret);
  const { refund, token } = await findRefund(db, "public", refundId); // lazily expires a due claim
  if (refund.status !== "awaiting_address") throw notClaimable(refund.status);
  if (address.toLowerCase() === zeroAddress) {
    throw refundRefusal("VALIDATION_ERROR", "refund-address-zero", "address must not be the zero address", [
      claimProblemDetail("zero-address"),
    ]);
  }
  await assertPayable(db, address, "address").catch((error: unknown) => {
    throw error instanceof AppError ? payerProblem(error, "service-address") : error;
  });
  const [session] = await db
    .select({ id: paymentSessions.id, domainId: paymentSessions.domainId, tokenId: paymentSessions.tokenId })
    .from(paymentSessions)
    .where(eq(paymentSessions.id, refund.sessionId));
  if (!session) throw commonRefusal("NOT_FOUND", "not-found", "refund not found");

  if (refund.approvalOnClaim) {
    // Above the threshold: the address is recorded and goes to a second member; nothing is reserved or signed.
    await db.transaction(async (tx) => {
      await claimUnderLocks(tx, session.id, refund.id, { kind: "claim-for-approval", address });
      await requestClaimApproval(tx, refund, session);
    });
    return toRefundView(await findRefund(db, "public", refundId));
  }
  try {
    const payout = await withGasTopUps(db, (afterTopUp) =>
      db.transaction(async (tx) => {
        await lockAccountForMoneyOut(tx, refund.userId); // first: the one lock order of money out
        const reserved = await reserveTransfer(tx, refundPayout(session, refund, token.decimals, address), { afterTopUp });
        // After the wallet's and the merchant's locks (reserveTransfer).
        await claimUnderLocks(tx, session.id, refund.id, { kind: "claim", address });
        return recordTransfer(tx, reserved);
      }),
    );
    await sendRefundPayout(db, payout);
  } catch (error) {
    if (!isShortOfTokens(error)) throw await claimFailure(db, refund.id, error);
    // The wallet lacks the tokens (nothing was recorded): the refund waits for them with the payer's address.
    const reason = await awaitingFundsReason(db, session.id, error, token);
    await db.transaction((tx) => claimUnderLocks(tx, session.id, refund.id, { kind: "claim-awaiting-funds", address, reason }));
  }
  return toRefundView(await findRefund(db, "public", refundId));
}

/** The payment's lock, then the refund's row, whose deadline is judged by the database's clock: the claim is taken, or refused. */
async function claimUnderLocks(tx: Db, sessionId: string, refundId: string, fact: RefundFact): Promise<void> {
  await lockSession(tx, sessionId);
  const applied = await applyRefundFact(tx, refundId, fact, { lock: true });
  if (applied.written) return;
  const { decision } = applied;
  throw notClaimable(!decision.accepted && decision.expired ? "expired" : (applied.refund?.status ?? "cancelled"));
}

function notClaimable(status: string): AppError {
  const why: Record<string, string> = {
    sending: "this refund was already claimed; it is on its way",
    awaiting_funds: "this refund was already claimed; it is sent as soon as the shop's wallet can pay it",
    completed: "this refund was already claimed and sent",
    failed: "this refund could not be sent; ask the shop for a new one",
    cancelled: "this refund was cancelled or its claim expired; ask the shop for a new one",
    expired: "this refund's claim expired; ask the shop for a new one",
    awaiting_approval: "this refund was already claimed; the shop confirms it before it is sent",
    rejected: "this refund was withdrawn by the shop; ask the shop for a new one",
  };
  return refundRefusal("VALIDATION_ERROR", "refund-not-claimable", why[status] ?? "this refund cannot be claimed", [
    claimProblemDetail("not-claimable"),
  ]);
}
