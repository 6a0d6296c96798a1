/**
 * What a fiat-priced session adds to its create answer and writes beside its row (docs/design.md §23).
 */

import { formatAmount } from "../../base/money";
import { formatFiatAmount } from "../pricing/fiat";
import type { FiatPrice } from "./fiat-price";
import type { QuoteValues } from "./insert-session";
import type { CreateFiatPaymentInput } from "./schemas";
import type { QuoteView } from "./session-quotes";

/** A fiat create with its offer prepared (prepareFiatPrice, before any transaction). */
export type FiatPaymentRequest = CreateFiatPaymentInput & { price: FiatPrice };

/** Every quote holds until the session expires: the quote's window is the session's life. */
export function quoteValues(price: FiatPrice, expiresAt: Date): QuoteValues[] {
  return price.offered.map((quote, position) => ({
    tokenId: quote.token.id,
    position,
    amount: quote.amount,
    rate: quote.rate,
    source: quote.source,
    offPeg: quote.offPeg,
    quotedAt: quote.quotedAt,
    expiresAt,
  }));
}

export function createdFiatFields(price: FiatPrice, expiresAt: Date): { currency: string; fiatAmount: string; quotes: QuoteView[] } {
  return {
    currency: price.fiat.currency,
    fiatAmount: formatFiatAmount(price.fiat.minor, price.fiat.minorDigits),
    quotes: price.offered.map((quote) => ({
      tokenId: quote.token.id,
      token: quote.token.symbol,
      amount: formatAmount(quote.amount, quote.token.decimals),
      rate: quote.rate,
      source: quote.source,
      quotedAt: quote.quotedAt.toISOString(),
      quoteExpiresAt: expiresAt.toISOString(),
      offPeg: quote.offPeg,
    })),
  };
}
