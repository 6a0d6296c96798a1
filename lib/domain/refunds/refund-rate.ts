/**
 * A refund of a fiat-priced payment (docs/design.md §23) gives back either the tokens paid (`basis:
 * "tokens"`, the default: as any refund) or a fiat amount at today's rate (`basis: "fiat"`): the
 * token that paid is priced now from its feeds (lib/domain/pricing, the checkout's rules: stale or
 * missing feed, or a stablecoin more than 3 % off its peg → refused, never a guessed price), and
 *
 *   tokens = ⌈ fiat · 10^decimals / rate ⌉     (rounded UP: the payer never gets less than the fiat amount)
 *
 * The fiat amount defaults to the payment's whole fiat price. The tokens must still be within what
 * the payment can refund (refund-rules.ts): a fiat amount that needs more is refused (naming the
 * most it can refund at today's rate), never capped — the merchant decides.
 *
 * Reading the feeds is a chain call: it runs before any transaction, and its refusal is thrown only
 * inside the idempotency key's transaction, so a replay answers the first refund even once the feed
 * went stale (as a fiat create does).
 */

import { and, eq, sql } from "drizzle-orm";
import type { AppError } from "../../base/errors";
import type { Db } from "../../db";
import type { RefundBasisKind } from "../../db/schema";
import { tokenCatalogue } from "../../db/schema";
import { amountRefusal } from "../payments/reasons";
import type { SessionWithToken } from "../payments/session-view";
import { FIAT_MINOR_UNITS, type FiatAmount, formatFiatAmount, parseFiatAmount } from "../pricing/fiat";
import { pricedCatalogueToken, quoteTokensOnChain } from "../pricing/price-tokens";
import { fiatValueOfTokens, parseRate } from "../pricing/rates";
import { refundRefusal } from "./reasons";
import type { CreateRefundInput } from "./schemas";

/** What a fiat-basis refund records beside its token amount. */
export interface FiatRefundTerms {
  currency: string;
  /** The fiat amount, in the currency's minor units. */
  fiatMinor: bigint;
  minorDigits: number;
  /** The token amount (base units) at `rate`, rounded up. */
  units: bigint;
  /** Fiat per whole token, 8 decimals, as the checkout's quotes write it. */
  rate: string;
  /** "chainlink:<token's USD feed>[/<currency's USD feed>]". */
  source: string;
  ratedAt: Date;
}

/** A refund's basis as requested, its shape checked (before the idempotency key is looked up). */
export type RequestedBasis =
  /** A token-priced payment: no basis, as before. */
  { kind: null } | { kind: "tokens" } | { kind: "fiat"; fiat: FiatAmount; explicit: boolean };

/** The fiat price of the payment, if it has one. */
function fiatPriceOf(found: SessionWithToken): FiatAmount | null {
  const { currency, fiatAmount } = found.session;
  if (currency === null || fiatAmount === null) return null;
  return { currency, minor: fiatAmount, minorDigits: FIAT_MINOR_UNITS[currency] ?? 2 };
}

/** Checks the body's basis fields against the payment: a basis only on a fiat-priced payment, a fiat amount only with `fiat`. */
export function requestedBasis(found: SessionWithToken, input: Pick<CreateRefundInput, "basis" | "fiatAmount" | "amount">): RequestedBasis {
  const price = fiatPriceOf(found);
  if (price === null) {
    if (input.basis !== undefined || input.fiatAmount !== undefined)
      throw refundRefusal(
        "VALIDATION_ERROR",
        "refund-basis-token-priced",
        "this payment is priced in tokens: a refund gives back tokens (amount); basis and fiatAmount are for fiat-priced payments",
        [{ path: input.basis !== undefined ? "basis" : "fiatAmount", message: "only for a fiat-priced payment" }],
      );
    return { kind: null };
  }
  if ((input.basis ?? "tokens") === "tokens") {
    if (input.fiatAmount !== undefined)
      throw refundRefusal("VALIDATION_ERROR", "refund-fiat-amount-needs-fiat-basis", 'fiatAmount needs basis "fiat"', [
        { path: "fiatAmount", message: 'give basis "fiat" with it, or an amount in tokens without it' },
      ]);
    return { kind: "tokens" };
  }
  if (input.amount !== undefined)
    throw refundRefusal(
      "VALIDATION_ERROR",
      "refund-amount-with-fiat-basis",
      'with basis "fiat" the refund is a fiat amount (fiatAmount, in the payment\'s currency), not a token amount',
      [{ path: "amount", message: 'not with basis "fiat": use fiatAmount' }],
    );
  if (input.fiatAmount === undefined) return { kind: "fiat", fiat: price, explicit: false };
  const parsed = parseFiatAmount(price.currency, input.fiatAmount);
  if (!parsed.ok) {
    // The currency is the payment's own, so only the amount can be wrong.
    if (parsed.problem === "currency-unsupported") throw new Error(`currency ${price.currency} of a payment is not supported`);
    throw amountRefusal("fiatAmount", parsed.problem, price.minorDigits);
  }
  return { kind: "fiat", fiat: parsed.amount, explicit: true };
}

/**
 * Today's rate of the token that paid and the token amount of `fiat` at it — or the refusal to
 * throw (in the key's transaction). One database read and one multicall.
 */
export async function priceFiatRefund(
  db: Db,
  found: SessionWithToken,
  fiat: FiatAmount,
  now = new Date(),
): Promise<{ ok: true; terms: FiatRefundTerms } | { ok: false; error: AppError }> {
  const { session, token } = found;
  const [catalogue] = await db
    .select()
    .from(tokenCatalogue)
    .where(
      and(eq(tokenCatalogue.network, session.network), sql`lower(${tokenCatalogue.contractAddress}) = lower(${token.contractAddress})`),
    );
  if (!catalogue) return { ok: false, error: rateUnavailable(token.symbol, "feed-not-configured") };
  const [result] = await quoteTokensOnChain(db, { network: session.network, fiat, tokens: [pricedCatalogueToken(catalogue)], now });
  if (!result) return { ok: false, error: rateUnavailable(token.symbol, "feed-not-configured") };
  if (!result.ok) return { ok: false, error: rateUnavailable(token.symbol, result.unavailable) };
  return {
    ok: true,
    terms: {
      currency: fiat.currency,
      fiatMinor: fiat.minor,
      minorDigits: fiat.minorDigits,
      units: result.amount,
      rate: result.rate,
      source: result.source,
      ratedAt: result.quotedAt,
    },
  };
}

function rateUnavailable(symbol: string, why: string): AppError {
  return refundRefusal(
    "VALIDATION_ERROR",
    "refund-rate-unavailable",
    `${symbol} has no usable rate now (${why}): a fiat refund is never priced at a guess. Refund the tokens paid (basis "tokens"), or try again once its price feed is fresh`,
    [{ path: "basis", message: why }],
  );
}

/** The most a fiat-basis refund can give back now: `refundable` tokens' fiat value at the rate, rounded down. */
export function fiatRefundable(refundable: bigint, decimals: number, terms: Pick<FiatRefundTerms, "rate" | "minorDigits">): bigint {
  const rate = parseRate(terms.rate);
  return rate === null ? 0n : fiatValueOfTokens(refundable, decimals, rate, terms.minorDigits);
}

/** The refusal of a fiat amount whose tokens at today's rate are more than the payment can refund. */
export function fiatExceedsRefundable(terms: FiatRefundTerms, symbol: string, left: string, atMost: bigint, units: string): AppError {
  const fiat = (minor: bigint) => `${formatFiatAmount(minor, terms.minorDigits)} ${terms.currency}`;
  return refundRefusal(
    "VALIDATION_ERROR",
    "refund-exceeds-refundable",
    `${fiat(terms.fiatMinor)} at today's rate (${terms.rate} ${terms.currency} per ${symbol}) is ${units} ${symbol}, more than this payment can still refund (${left} ${symbol}, at most ${fiat(atMost)} now). Give a smaller fiatAmount, or refund the tokens paid (basis "tokens")`,
    [{ path: "fiatAmount", message: `at most ${fiat(atMost)} at today's rate` }],
  );
}

/** The refund row's basis columns. */
export function basisColumns(basis: RequestedBasis, terms: FiatRefundTerms | null) {
  const kind: RefundBasisKind | null = basis.kind;
  if (kind !== "fiat" || terms === null) return { basis: kind };
  return {
    basis: kind,
    currency: terms.currency,
    fiatAmount: terms.fiatMinor,
    rate: terms.rate,
    rateSource: terms.source,
    ratedAt: terms.ratedAt,
  };
}
