/**
 * Refunds the withdrawal wallet cannot pay yet (`awaiting_funds`): why, in the merchant's words,
 * and sending them once it can. A refund made before the payment's tokens were forwarded into the
 * wallet — or for a payment forwarded elsewhere (a `merchantWallet`, the domain's payout address),
 * which the wallet never receives — waits with its address instead of failing; the job
 * (lib/ops/jobs/schedule.ts `refunds`) re-checks the longest-unchecked ones a page at a time and sends
 * each through the ledger like a claim: the refund moves to `sending` by compare-and-set inside
 * its payout's recording transaction, so two runs (or a run and a cancel) never both send.
 */

import { and, asc, eq, lte, sql } from "drizzle-orm";
import { getAddress } from "viem";
import { redactUrls } from "../../base/error-text";
import { AppError } from "../../base/errors";
import { log } from "../../base/log";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { type PaymentSession, paymentSessions, refunds } from "../../db/schema";
import { lockAccountForMoneyOut } from "../transfers/money-out-locks";
import { recordTransfer, reserveTransfer } from "../transfers/record-transfer";
import { withGasTopUps } from "../transfers/send-transfer";
import { ShortOfTokensError } from "../transfers/transfer-errors";
import { findRefund } from "./find-refund";
import { refundPayout, sendRefundPayout } from "./refund-payouts";
import { applyRefundFact } from "./refund-records";
import { assertWalletCanPay, lockSession } from "./refund-rules";

/** How long a waiting refund rests between two checks of its wallet (the job's tick is shorter). */
export const AWAITING_FUNDS_RECHECK_MS = 30_000;

/**
 * Why the wallet cannot pay, for the merchant (the refund's `reason`): whether this payment's own
 * tokens will ever reach the wallet, or only the merchant's top-up will.
 */
export async function awaitingFundsReason(
  db: Db,
  sessionId: string,
  shortage: ShortOfTokensError,
  token: { symbol: string; decimals: number },
): Promise<string> {
  const [session] = await db
    .select({ forwardTo: paymentSessions.forwardTo })
    .from(paymentSessions)
    .where(eq(paymentSessions.id, sessionId));
  const amount = (units: bigint) => `${formatAmount(units, token.decimals)} ${token.symbol}`;
  const free = shortage.balance - shortage.reserved;
  const missing = shortage.needed - (free > 0n ? free : 0n);
  const holds = `the withdrawal wallet ${shortage.wallet} holds ${amount(shortage.balance)}${shortage.reserved > 0n ? ` (${amount(shortage.reserved)} of it reserved by sends not yet mined)` : ""}, ${amount(shortage.needed)} needed`;
  if (session && session.forwardTo.toLowerCase() === shortage.wallet.toLowerCase()) {
    return `${holds}: this payment's tokens are forwarded there, so the refund is sent as soon as they arrive (or send ${amount(missing)} to it yourself)`;
  }
  return `${holds}, and it will never receive this payment's tokens: they were forwarded to ${session?.forwardTo ?? "another address"}. Send ${amount(missing)} to ${shortage.wallet} and the refund goes out by itself, or cancel it`;
}

export function isShortOfTokens(error: unknown): error is ShortOfTokensError {
  return error instanceof ShortOfTokensError;
}

/** The refund left `awaiting_funds` meanwhile (sent by another run, cancelled): nothing recorded. */
class MovedOn extends Error {}

export type AwaitingOutcome = "sent" | "waiting" | "gone";

/** One round of the job: up to `limit` waiting refunds whose last check is `recheckAfterMs` old, longest-unchecked first. */
export async function sendAwaitingRefunds(
  db: Db,
  options: { limit: number; recheckAfterMs?: number },
): Promise<Record<AwaitingOutcome, number>> {
  const seconds = (options.recheckAfterMs ?? AWAITING_FUNDS_RECHECK_MS) / 1000;
  const due = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.status, "awaiting_funds"), lte(refunds.updatedAt, sql`now() - make_interval(secs => ${seconds})`)))
    .orderBy(asc(refunds.updatedAt), asc(refunds.id))
    .limit(options.limit);
  const counts: Record<AwaitingOutcome, number> = { sent: 0, waiting: 0, gone: 0 };
  for (const { id } of due) counts[await sendAwaitingRefund(db, id)]++;
  return counts;
}

/** Sends one waiting refund if its wallet can pay now; otherwise notes why not (and when it was checked). */
export async function sendAwaitingRefund(db: Db, refundId: string): Promise<AwaitingOutcome> {
  const { refund, token } = await findRefund(db, "public", refundId);
  if (refund.status !== "awaiting_funds" || refund.toAddress === null) return "gone";
  const [session] = await db
    .select({
      id: paymentSessions.id,
      domainId: paymentSessions.domainId,
      userId: paymentSessions.userId,
      tokenId: paymentSessions.tokenId,
    })
    .from(paymentSessions)
    .where(eq(paymentSessions.id, refund.sessionId));
  if (!session) return "gone";
  const toAddress = getAddress(refund.toAddress); // stored checksummed: this only types it
  try {
    await assertWalletCanPay(db, session satisfies Pick<PaymentSession, "id" | "domainId" | "userId" | "tokenId">);
    const payout = await withGasTopUps(db, (afterTopUp) =>
      db.transaction(async (tx) => {
        await lockAccountForMoneyOut(tx, session.userId); // first: the one lock order of money out
        const reserved = await reserveTransfer(tx, refundPayout(session, refund, token.decimals, toAddress), { afterTopUp });
        // Under the wallet's and the merchant's locks (reserveTransfer), then the payment's, then the refund's row.
        await lockSession(tx, session.id);
        if (!(await applyRefundFact(tx, refund.id, { kind: "funds-arrived" }, { lock: true })).written) throw new MovedOn();
        return recordTransfer(tx, reserved);
      }),
    );
    await sendRefundPayout(db, payout);
    return "sent";
  } catch (error) {
    if (error instanceof MovedOn) return "gone";
    const reason = await whyNot(db, refund.sessionId, error, token);
    // Refused once the refund moved on (its withdrawal was recorded and failed: it follows that withdrawal).
    await applyRefundFact(db, refund.id, { kind: "funds-short", reason });
    return "waiting";
  }
}

async function whyNot(db: Db, sessionId: string, error: unknown, token: { symbol: string; decimals: number }): Promise<string> {
  if (isShortOfTokens(error)) return awaitingFundsReason(db, sessionId, error, token);
  if (error instanceof AppError) return `the refund could not be sent yet (it is tried again): ${redactUrls(error.message)}`;
  log.error({ err: error, sessionId }, "a refund awaiting funds could not be sent");
  return "the refund could not be sent yet because of an internal error (see the server's log); it is tried again";
}
