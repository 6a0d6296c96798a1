/** The wire shapes of a session; amounts are canonical decimal strings of whole tokens. */

import { getConfig } from "../../base/config";
import { formatAmount } from "../../base/money";
import type { PaymentSession, Token } from "../../db/schema";
import { FIAT_MINOR_UNITS, formatFiatAmount } from "../pricing/fiat";
import { type QuoteRow, toQuoteView } from "./session-quotes";

export type SessionWithToken = {
  session: PaymentSession;
  token: Pick<Token, "symbol" | "decimals" | "contractAddress">;
  /** A fiat session's quotes (quotesOf); a fiat session read without them shows none. */
  quotes?: readonly QuoteRow[];
};

export function checkoutUrl(sessionId: string): string {
  return `${getConfig().siteUrl}/pay/${sessionId}`;
}

function received(session: Pick<PaymentSession, "receivedAmount">, decimals: number): string | null {
  return session.receivedAmount > 0n ? formatAmount(session.receivedAmount, decimals) : null;
}

/** What the status view reads of a session and its token. */
export type StatusViewSource = {
  session: Pick<
    PaymentSession,
    | "id"
    | "status"
    | "amount"
    | "receivedAmount"
    | "txHash"
    | "expiresAt"
    | "overpaid"
    | "late"
    | "lateAmount"
    | "description"
    | "orderId"
    | "currency"
    | "fiatAmount"
    | "rate"
    | "rateSource"
    | "ratedAt"
  >;
  token: Pick<Token, "symbol" | "decimals">;
  quotes?: readonly QuoteRow[];
};

type FiatSource = Pick<PaymentSession, "status" | "receivedAmount" | "currency" | "fiatAmount" | "rate" | "rateSource" | "ratedAt">;

/**
 * A fiat session's fields (docs/design.md §23), after the seed's: its price, its quotes, and once paid
 * the token paid, its amount, the rate, where it came from and when. A token-priced session has none of these keys at all:
 * its answers stay byte for byte the seed's.
 */
function fiatFields(session: FiatSource, token: Pick<Token, "symbol" | "decimals">, quotes: readonly QuoteRow[] = []) {
  if (session.currency === null || session.fiatAmount === null) return {};
  const paid = session.status === "completed";
  return {
    currency: session.currency,
    fiatAmount: formatFiatAmount(session.fiatAmount, FIAT_MINOR_UNITS[session.currency] ?? 2),
    quotes: quotes.map(toQuoteView),
    paidToken: paid ? token.symbol : null,
    paidAmount: paid ? formatAmount(session.receivedAmount, token.decimals) : null,
    rate: paid ? session.rate : null,
    rateSource: paid ? session.rateSource : null,
    ratedAt: paid && session.ratedAt ? session.ratedAt.toISOString() : null,
  };
}

export function toStatusView({ session, token, quotes }: StatusViewSource) {
  return {
    sessionId: session.id,
    status: session.status,
    amount: formatAmount(session.amount, token.decimals),
    receivedAmount: received(session, token.decimals),
    txHash: session.txHash,
    expiresAt: session.expiresAt.toISOString(),
    token: token.symbol,
    overpaid: session.overpaid,
    late: session.late,
    lateAmount: session.lateAmount > 0n ? formatAmount(session.lateAmount, token.decimals) : null,
    description: session.description,
    orderId: session.orderId,
    ...fiatFields(session, token, quotes),
  };
}

export function toHistoryItem({ session, token, quotes }: SessionWithToken) {
  return {
    sessionId: session.id,
    depositAddress: session.depositAddress,
    ephemeralAddress: session.depositAddress,
    amount: formatAmount(session.amount, token.decimals),
    token: token.symbol,
    status: session.status,
    receivedAmount: received(session, token.decimals),
    txHash: session.txHash,
    overpaid: session.overpaid,
    late: session.late,
    lateAmount: session.lateAmount > 0n ? formatAmount(session.lateAmount, token.decimals) : null,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    checkoutUrl: checkoutUrl(session.id),
    metadata: (session.metadata as Record<string, unknown> | null) ?? null,
    description: session.description,
    orderId: session.orderId,
    ...fiatFields(session, token, quotes),
  };
}
