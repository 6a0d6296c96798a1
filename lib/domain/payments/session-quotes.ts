/**
 * A fiat session's locked quotes (session_quotes), read for its views: the status, the history, the
 * webhooks, the checkout page and the recording of transfers. Token-priced sessions have none and
 * cost no query.
 */
import { asc, eq, inArray } from "drizzle-orm";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { sessionQuotes, tokens } from "../../db/schema";

export interface QuoteRow {
  sessionId: string;
  tokenId: number;
  position: number;
  amount: bigint;
  rate: string;
  source: string;
  offPeg: boolean;
  quotedAt: Date;
  expiresAt: Date;
  symbol: string;
  decimals: number;
  /** EIP-55. */
  contractAddress: string;
}

/** The wire shape of one quote (status, create, history, webhooks). */
export interface QuoteView {
  tokenId: number;
  token: string;
  amount: string;
  rate: string;
  source: string;
  quotedAt: string;
  quoteExpiresAt: string;
  offPeg: boolean;
}

/** The quotes of these sessions, each session's in the order offered; no query for none. */
export async function quotesOf(db: Db, sessionIds: readonly string[]): Promise<Map<string, QuoteRow[]>> {
  const byId = new Map<string, QuoteRow[]>();
  if (sessionIds.length === 0) return byId;
  const rows = await db
    .select({
      sessionId: sessionQuotes.sessionId,
      tokenId: sessionQuotes.tokenId,
      position: sessionQuotes.position,
      amount: sessionQuotes.amount,
      rate: sessionQuotes.rate,
      source: sessionQuotes.source,
      offPeg: sessionQuotes.offPeg,
      quotedAt: sessionQuotes.quotedAt,
      expiresAt: sessionQuotes.expiresAt,
      symbol: tokens.symbol,
      decimals: tokens.decimals,
      contractAddress: tokens.contractAddress,
    })
    .from(sessionQuotes)
    .innerJoin(tokens, eq(tokens.id, sessionQuotes.tokenId))
    .where(inArray(sessionQuotes.sessionId, [...new Set(sessionIds)]))
    .orderBy(asc(sessionQuotes.sessionId), asc(sessionQuotes.position));
  for (const row of rows) {
    const list = byId.get(row.sessionId) ?? [];
    list.push(row);
    byId.set(row.sessionId, list);
  }
  return byId;
}

export function toQuoteView(quote: QuoteRow): QuoteView {
  return {
    tokenId: quote.tokenId,
    token: quote.symbol,
    amount: formatAmount(quote.amount, quote.decimals),
    rate: quote.rate,
    source: quote.source,
    quotedAt: quote.quotedAt.toISOString(),
    quoteExpiresAt: quote.expiresAt.toISOString(),
    offPeg: quote.offPeg,
  };
}
