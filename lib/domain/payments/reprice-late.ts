/**
 * Late transfers of fiat sessions, re-priced at their block's rate (docs/design.md §23). A
 * fiat session that expired unpaid (not cancelled, not completed) and then receives an offered
 * token is not paid at the locked quote any more: the scanner only marks such a deposit `reprice =
 * 'due'` (no RPC in its transaction, and only when it could pay: mayCountRepriced), and this step —
 * a page per round of the expire job, under both drivers — reads the token's and the currency's
 * feeds AT THE DEPOSIT'S BLOCK (one multicall per deposit), prices it under the same rules as a
 * quote (staleness against the block's time, de-peg guard), and:
 *
 *   rate within the domain's tolerance of the locked quote AND what counted plus this deposit at
 *   that rate covers the price within the underpay threshold → 'counted': the session completes
 *   with it (the rate, "chain:block N" and the time recorded on the deposit; webhook as usual)
 *   anything else (moved too far, short, stale or missing feed, session no longer expired) → 'late':
 *   it stays a late payment exactly as before — never a guessed price.
 *
 * A read where every feed is unreadable (the node did not answer) leaves the deposit due for
 * REPRICE_RETRY_MS after it was recorded, then it stays late.
 */

import { and, asc, eq, sql } from "drizzle-orm";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type Deposit, deposits, type PaymentSession, paymentSessions, tokenCatalogue, tokens } from "../../db/schema";
import { readPriceFeeds } from "../../engine/chain/price-feeds";
import { fiatThresholdsOfDomains } from "../merchant-domains/fiat-thresholds";
import { countPaidLinkSessions } from "../plans/count-link-sessions";
import { FIAT_MINOR_UNITS } from "../pricing/fiat";
import { findCurrencyFeed, pricedCatalogueToken } from "../pricing/price-tokens";
import { feedsToRead, quoteTokens } from "../pricing/quote-tokens";
import { parseRate } from "../pricing/rates";
import { rateWithinTolerance } from "./fiat-settlement";
import { countedDeposits } from "./record-transfers";
import { quotesOf } from "./session-quotes";
import { applySessionFact, finishSessionChanges } from "./session-records";
import { decideSession } from "./session-state";

/** Deposits re-priced per round at most (one multicall each). */
export const REPRICE_PAGE = 20;
/** How long a deposit whose feeds could not be read at all (the node) is asked again. */
export const REPRICE_RETRY_MS = 10 * 60 * 1000;

export type RepriceOutcome = "counted" | "late" | "retry";

export interface RepriceRound {
  counted: number;
  late: number;
  retry: number;
}

/** One round: the oldest due deposits, each re-priced on its own (one failing never stops the others). */
export async function repriceLateDeposits(db: Db, options: { limit?: number; now?: Date } = {}): Promise<RepriceRound> {
  const due = await db
    .select({ id: deposits.id })
    .from(deposits)
    .where(eq(deposits.reprice, "due"))
    .orderBy(asc(deposits.id))
    .limit(options.limit ?? REPRICE_PAGE);
  const round: RepriceRound = { counted: 0, late: 0, retry: 0 };
  for (const { id } of due) {
    try {
      round[await repriceDeposit(db, id, options.now ?? new Date())]++;
    } catch (error) {
      round.retry++;
      log.warn({ depositId: id, err: String(error) }, "re-pricing a late deposit failed; asked again next round");
    }
  }
  return round;
}

/** The rate of the deposit's token at its block, in the session's currency, or null (stale, missing, de-pegged, unreadable). */
type BlockRate = { rate: bigint; text: string } | { rate: null; unreadable: boolean };

async function blockRateOf(db: Db, session: PaymentSession, deposit: Deposit): Promise<BlockRate> {
  const [catalogue] = await db
    .select()
    .from(tokenCatalogue)
    .where(
      and(eq(tokenCatalogue.network, deposit.network), sql`lower(${tokenCatalogue.contractAddress}) = lower(${deposit.tokenContract})`),
    );
  const currency = session.currency;
  const minorDigits = currency === null ? undefined : FIAT_MINOR_UNITS[currency];
  if (!catalogue || currency === null || minorDigits === undefined || session.fiatAmount === null) return { rate: null, unreadable: false };
  const token = pricedCatalogueToken(catalogue);
  const currencyFeed = await findCurrencyFeed(db, deposit.network, currency);
  const feeds = feedsToRead([token], currencyFeed);
  if (feeds.length === 0) return { rate: null, unreadable: false };
  // The block's own time is "now" for the feeds: a round older than the heartbeat at that block is stale.
  const at = deposit.blockTimestamp;
  const readings = await readPriceFeeds(deposit.network, feeds, { blockNumber: deposit.blockNumber, now: at });
  const [result] = quoteTokens({
    fiat: { currency, minor: session.fiatAmount, minorDigits },
    tokens: [token],
    currencyFeed,
    readings,
    now: at,
  });
  if (result?.ok) {
    const rate = parseRate(result.rate);
    if (rate !== null) return { rate, text: result.rate };
  }
  const unreadable = [...readings.values()].every((r) => !r.ok && r.problem === "unreadable");
  return { rate: null, unreadable };
}

/** Re-prices one due deposit; what became of it. */
export async function repriceDeposit(db: Db, depositId: number, now = new Date()): Promise<RepriceOutcome> {
  const [row] = await db
    .select({ deposit: deposits, session: paymentSessions })
    .from(deposits)
    .innerJoin(paymentSessions, eq(paymentSessions.id, deposits.sessionId))
    .where(and(eq(deposits.id, depositId), eq(deposits.reprice, "due")));
  if (!row) return "late";
  const settleLate = async () => {
    await db
      .update(deposits)
      .set({ reprice: "late", repricedAt: now })
      .where(and(eq(deposits.id, depositId), eq(deposits.reprice, "due")));
    return "late" as const;
  };
  if (row.session.status !== "expired" || row.session.currency === null) return settleLate();

  // The chain first, outside any transaction: no row lock waits on the node.
  const block = await blockRateOf(db, row.session, row.deposit);
  if (block.rate === null) {
    if (block.unreadable && now.getTime() - row.deposit.createdAt.getTime() < REPRICE_RETRY_MS) return "retry";
    return settleLate();
  }

  return db.transaction(async (tx) => {
    // NO KEY UPDATE, as the expiry takes: the scanner's deposit inserts (KEY SHARE through the
    // foreign key) never wait on it; its own FOR UPDATE of the session waits for this short transaction.
    const [session] = await tx.select().from(paymentSessions).where(eq(paymentSessions.id, row.session.id)).for("no key update");
    const [deposit] = await tx
      .select()
      .from(deposits)
      .where(and(eq(deposits.id, depositId), eq(deposits.reprice, "due")))
      .for("update");
    if (!session || !deposit) return "late";
    const markLate = async () => {
      await tx.update(deposits).set({ reprice: "late", repricedAt: now }).where(eq(deposits.id, depositId));
      return "late" as const;
    };
    if (session.status !== "expired" || session.cancelledAt !== null) return markLate();

    const quoteRows = (await quotesOf(tx, [session.id])).get(session.id) ?? [];
    const quote = quoteRows.find((q) => q.contractAddress.toLowerCase() === deposit.tokenContract.toLowerCase());
    const quoteRate = quote ? parseRate(quote.rate) : null;
    const thresholds = (await fiatThresholdsOfDomains(tx, [session.domainId]))(session.domainId);
    if (quoteRate === null || !rateWithinTolerance(quoteRate, block.rate, thresholds.rateToleranceBps)) return markLate();

    // Would the session complete with this deposit counted at its block's rate?
    const repriced: Deposit = {
      ...deposit,
      reprice: "counted",
      repriceRate: block.text,
      repriceSource: `chain:block ${deposit.blockNumber}`,
      repricedAt: now,
    };
    const received = (await tx.select().from(deposits).where(eq(deposits.sessionId, session.id))).map((d) =>
      d.id === deposit.id ? repriced : d,
    );
    const [sessionToken] = await tx
      .select({ id: tokens.id, contract: tokens.contractAddress })
      .from(tokens)
      .where(eq(tokens.id, session.tokenId));
    const contractOf = new Map(sessionToken ? [[sessionToken.id, sessionToken.contract.toLowerCase()]] : []);
    const { counted, otherToken, settle, settleContract } = countedDeposits(session, received, contractOf, quoteRows, thresholds);
    // Paid in the token re-priced: the session's rate is the one it was paid at (the quotes keep theirs).
    const paidAt =
      settle && quote && settle.tokenId === quote.tokenId
        ? { ...settle, rate: block.text, rateSource: repriced.repriceSource ?? undefined, ratedAt: deposit.blockTimestamp }
        : settle;
    const fact = { kind: "transfers-recorded" as const, counted, otherTokenIds: otherToken.map((d) => d.id), freshIds: [], settle: paidAt };
    const decision = decideSession(session, fact, now);
    if (!decision.accepted || decision.next.status !== "completed") return markLate();

    await tx
      .update(deposits)
      .set({ reprice: "counted", repriceRate: repriced.repriceRate, repriceSource: repriced.repriceSource, repricedAt: now })
      .where(eq(deposits.id, deposit.id));
    const applied = await applySessionFact(tx, session, fact, now);
    if (!applied.written) throw new Error(`payment session ${session.id} changed under its row lock`);
    // It counts now: no longer late (the session's other late deposits stay so).
    await tx.update(deposits).set({ late: false }).where(eq(deposits.id, deposit.id));
    // As a completion in the scanner: its unswept deposits are swept even below the token's minimum.
    await tx
      .update(deposits)
      .set({ needsPlanning: true })
      .where(and(eq(deposits.sessionId, session.id), sql`${deposits.forwardId} is null`));
    if (settleContract)
      await countPaidLinkSessions(
        tx,
        [{ session: applied.session, received: counted.reduce((sum, d) => sum + d.amount, 0n), contract: settleContract }],
        now,
      );
    await finishSessionChanges(tx, [applied], now);
    return "counted" as const;
  });
}
