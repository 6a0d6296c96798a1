import { and, eq, inArray, isNull } from "drizzle-orm";
import { metrics } from "../../base/metrics";
import type { Db } from "../../db";
import { type Deposit, deposits, type PaymentSession, paymentSessions, tokens } from "../../db/schema";
import type { ObservedTransfer } from "../../engine/scanner/scanner";
import { fiatThresholdsOfDomains } from "../merchant-domains/fiat-thresholds";
import { countPaidLinkSessions, type LinkSessionReceipt } from "../plans/count-link-sessions";
import { parseRate } from "../pricing/rates";
import {
  creditIn,
  type FiatThresholds,
  type LockedQuote,
  mayCountRepriced,
  repricedCredit,
  settlementQuote,
  shortfallUnitsOf,
} from "./fiat-settlement";
import { type QuoteRow, quotesOf } from "./session-quotes";
import { type AppliedSessionFact, applySessionFact, finishSessionChanges } from "./session-records";
import type { Settlement } from "./session-state";

/**
 * Records confirmed transfers into deposit addresses (idempotently, keyed by the chain's own ids)
 * and re-evaluates the sessions they touched. New deposits are flagged for the forward planner,
 * and so are the unswept ones of a session that has just completed (its completing payment is
 * swept even below the token's minimum). The webhook events of those changes are written in the
 * same transaction. Run it in the scanner's transaction, with the cursor. What each session's
 * transfers do to it is decided by session-state.ts and written by session-records.ts.
 */
export async function recordTransfers(tx: Db, transfers: ObservedTransfer[], now = new Date()): Promise<void> {
  if (transfers.length === 0) return;
  const inserted = await tx
    .insert(deposits)
    .values(transfers)
    .onConflictDoNothing({ target: [deposits.network, deposits.txHash, deposits.logIndex] })
    .returning();
  if (inserted.length === 0) return;

  const sessionIds = [...new Set(inserted.map((d) => d.sessionId))];
  const sessions = await tx
    .select()
    .from(paymentSessions)
    .where(inArray(paymentSessions.id, sessionIds))
    .orderBy(paymentSessions.id)
    .for("update");
  const sessionTokens = await tx
    .select({ id: tokens.id, contract: tokens.contractAddress })
    .from(tokens)
    .where(inArray(tokens.id, [...new Set(sessions.map((s) => s.tokenId))]));
  const contractOf = new Map(sessionTokens.map((t) => [t.id, t.contract.toLowerCase()]));
  const fiatSessions = sessions.filter((s) => s.currency !== null);
  const quotes = await quotesOf(
    tx,
    fiatSessions.map((s) => s.id),
  );
  const thresholdsOf = await fiatThresholdsOfDomains(
    tx,
    fiatSessions.map((s) => s.domainId),
  );

  const allReceived = await tx.select().from(deposits).where(inArray(deposits.sessionId, sessionIds));
  const changes: AppliedSessionFact[] = [];
  const receipts: LinkSessionReceipt[] = [];
  for (const session of sessions) {
    const received = allReceived.filter((d) => d.sessionId === session.id);
    const fresh = inserted.filter((d) => d.sessionId === session.id);
    const { counted, otherToken, settle, settleContract, repriceCandidates } = countedDeposits(
      session,
      received,
      contractOf,
      quotes.get(session.id),
      thresholdsOf(session.domainId),
    );
    const sessionContract = settleContract;
    const applied = await applySessionFact(
      tx,
      session,
      { kind: "transfers-recorded", counted, otherTokenIds: otherToken.map((d) => d.id), freshIds: fresh.map((d) => d.id), settle },
      now,
    );
    // Under the row lock taken above, re-evaluating transfers always applies.
    if (!applied.events) throw new Error(`payment session ${session.id} refused its transfers although its row is locked`);
    const updated = applied.session;
    if (sessionContract)
      receipts.push({ session: updated, received: counted.reduce((sum, d) => sum + d.amount, 0n), contract: sessionContract });
    changes.push(applied);
    if (updated.status === "expired" && repriceCandidates.length > 0) {
      // A fiat session that expired unpaid: its new late deposits that could still pay it at their
      // block's rate wait for reprice-late.ts (an RPC read each, bounded per round, never here).
      const freshIds = new Set(fresh.map((d) => d.id));
      const due = repriceCandidates.filter((id) => freshIds.has(id));
      if (due.length > 0)
        await tx
          .update(deposits)
          .set({ reprice: "due" })
          .where(and(eq(deposits.sessionId, session.id), inArray(deposits.id, due), isNull(deposits.reprice)));
    }
    if (applied.events.types.includes("payment.completed")) {
      // Counted before the commit: a scan that rolls back and runs again may count it twice (rare, and only a metric).
      const completing = counted.find((d) => d.txHash === updated.txHash);
      if (completing)
        metrics().detectionLatency.observe(
          { network: session.network },
          Math.max(0, (now.getTime() - completing.blockTimestamp.getTime()) / 1000),
        );
      await tx
        .update(deposits)
        .set({ needsPlanning: true })
        .where(and(eq(deposits.sessionId, session.id), isNull(deposits.forwardId)));
    }
  }
  // Still under the sessions' row locks, taken in id order above.
  await countPaidLinkSessions(tx, receipts, now);
  await finishSessionChanges(tx, changes, now);
}

/**
 * Which deposits pay the session, in which token's units. A token-priced session counts its own
 * token; another token sent to the address pays nothing toward it and is still forwarded. A fiat
 * session counts every offered token, each credited at its quote in the token it settles in
 * (fiat-settlement.ts); a token it did not offer is like another token. A deposit re-priced at its
 * block's rate (reprice = 'counted', reprice-late.ts) counts at that rate although it is late.
 * `repriceCandidates`: a fiat session's offered deposits after its deadline, not yet re-priced, that
 * could still pay it at a rate within the tolerance (mayCountRepriced).
 */
export function countedDeposits(
  session: PaymentSession,
  received: Deposit[],
  contractOf: ReadonlyMap<number, string>,
  quoteRows: readonly QuoteRow[] | undefined,
  thresholds: FiatThresholds,
): {
  counted: (Deposit & { repriced?: boolean })[];
  otherToken: Deposit[];
  settle?: Settlement;
  settleContract: string | undefined;
  repriceCandidates: number[];
} {
  if (session.currency === null || !quoteRows || quoteRows.length === 0) {
    const contract = contractOf.get(session.tokenId);
    const [counted, otherToken] = partition(received, (d) => d.tokenContract.toLowerCase() === contract);
    return { counted, otherToken, settleContract: contract, repriceCandidates: [] };
  }
  const locked = new Map<string, LockedQuote>(
    quoteRows.map((q) => [
      q.contractAddress.toLowerCase(),
      {
        tokenId: q.tokenId,
        contract: q.contractAddress.toLowerCase(),
        amount: q.amount,
        rate: q.rate,
        source: q.source,
        quotedAt: q.quotedAt,
      },
    ]),
  );
  const [offered, otherToken] = partition(received, (d) => locked.has(d.tokenContract.toLowerCase()));
  const current = [...locked.values()].find((q) => q.tokenId === session.tokenId) ?? [...locked.values()][0];
  if (!current) throw new Error(`fiat session ${session.id} has no quotes`);
  const settlement = settlementQuote(
    current,
    locked,
    offered.map((d) => ({ ...d, contract: d.tokenContract.toLowerCase() })),
  );
  const afterDeadline = (d: Deposit) => d.blockTimestamp.getTime() > session.expiresAt.getTime();
  const counted = offered.map((d) => {
    // biome-ignore lint/style/noNonNullAssertion: offered holds only deposits whose contract has a quote
    const from = locked.get(d.tokenContract.toLowerCase())!;
    const atQuote = creditIn(settlement, from, d.amount);
    const quoteRate = parseRate(from.rate);
    const blockRate = d.reprice === "counted" && d.repriceRate !== null ? parseRate(d.repriceRate) : null;
    if (blockRate !== null && quoteRate !== null && afterDeadline(d))
      return { ...d, amount: repricedCredit(atQuote, quoteRate, blockRate), repriced: true };
    return { ...d, amount: atQuote, repriced: false };
  });
  const paidInWindow = counted.filter((d) => !afterDeadline(d) || d.repriced === true);
  const inWindow = paidInWindow.reduce((sum, d) => sum + d.amount, 0n);
  const shortfallUnits = shortfallUnitsOf(paidInWindow.map((d) => d.tokenContract));
  const repriceCandidates =
    session.cancelledAt === null
      ? counted
          .filter(
            (d) =>
              afterDeadline(d) &&
              d.reprice === null &&
              mayCountRepriced(settlement.amount, inWindow, d.amount, thresholds, shortfallUnits + 1n),
          )
          .map((d) => d.id)
      : [];
  const settle = {
    tokenId: settlement.tokenId,
    amount: settlement.amount,
    rate: settlement.rate,
    rateSource: settlement.source,
    ratedAt: settlement.quotedAt,
    underpayBps: thresholds.underpayBps,
    shortfallUnits,
  };
  return { counted, otherToken, settle, settleContract: settlement.contract, repriceCandidates };
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}
