/**
 * The money rule of a fiat price, in bigint only (docs/design.md §23). A rate is the fiat value of one
 * whole token, written with RATE_DECIMALS decimals ("600.00000000" USD per BNB, "0.92592592" EUR
 * per USDT). It is rounded DOWN from the feeds' exact ratio and the token amount is rounded UP from
 * the rate, so the payer always pays at least the price (the merchant never receives less), and
 * anyone can recompute the amount from the quote's rate alone:
 *
 *   amount = ⌈ fiat · 10^tokenDecimals / rate ⌉      value = ⌊ amount · rate / 10^tokenDecimals ⌋
 *
 * and value(amount(fiat)) ≥ fiat for every fiat amount.
 */

export const RATE_DECIMALS = 8;
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);
const MAX_UINT256 = 2n ** 256n - 1n;

/** A USD price: `answer` in units of 10^-decimals USD (a Chainlink answer, or exactly 1 for a pegged stablecoin). */
export interface UsdPrice {
  answer: bigint;
  decimals: number;
}
export const ONE_USD: UsdPrice = { answer: 1n, decimals: 0 };

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/**
 * The token's rate in the currency, in 10^-RATE_DECIMALS units, rounded down: (token USD price) ÷
 * (currency's USD price). 0n when the token is worth less than the rate can write (the caller
 * treats it as unavailable). Both prices must be positive.
 */
export function rateUnits(token: UsdPrice, currency: UsdPrice): bigint {
  const numerator = token.answer * 10n ** BigInt(currency.decimals) * RATE_SCALE;
  const denominator = 10n ** BigInt(token.decimals) * currency.answer;
  return numerator / denominator;
}

/** Rate units → the rate's string, every decimal shown: 60_000_000_000n → "600.00000000". */
export function formatRate(units: bigint): string {
  const digits = units.toString().padStart(RATE_DECIMALS + 1, "0");
  return `${digits.slice(0, -RATE_DECIMALS)}.${digits.slice(-RATE_DECIMALS)}`;
}

/** A rate's string → its units; null for anything that is not a positive decimal with at most RATE_DECIMALS decimals. */
export function parseRate(rate: string): bigint | null {
  const match = /^(0|[1-9][0-9]{0,59})(?:\.([0-9]{1,8}))?$/.exec(rate);
  if (!match) return null;
  const units = BigInt((match[1] ?? "") + (match[2] ?? "").padEnd(RATE_DECIMALS, "0"));
  return units > 0n ? units : null;
}

/**
 * The token amount (base units) that pays `fiatMinor` (the currency's minor units) at `rate` (rate
 * units), rounded UP to the token's base unit. null when it would not fit a uint256.
 */
export function tokenAmountForFiat(fiatMinor: bigint, minorDigits: number, rate: bigint, tokenDecimals: number): bigint | null {
  if (rate <= 0n) throw new RangeError("a rate is positive");
  const amount = ceilDiv(fiatMinor * 10n ** BigInt(tokenDecimals) * RATE_SCALE, rate * 10n ** BigInt(minorDigits));
  return amount > MAX_UINT256 ? null : amount;
}

/**
 * The fiat value (the currency's minor units) of `amount` base units at `rate` (rate units), rounded
 * DOWN: crediting a transfer of another token at its quote, and reports, never overstate it.
 */
export function fiatValueOfTokens(amount: bigint, tokenDecimals: number, rate: bigint, minorDigits: number): bigint {
  if (rate <= 0n) throw new RangeError("a rate is positive");
  return (amount * rate * 10n ** BigInt(minorDigits)) / (10n ** BigInt(tokenDecimals) * RATE_SCALE);
}

/** How far a USD price is from 1 USD, as a comparison: is |price − 1| ≤ numerator/denominator? */
export function withinOfOneUsd(price: UsdPrice, numerator: bigint, denominator: bigint): boolean {
  const one = 10n ** BigInt(price.decimals);
  const distance = price.answer > one ? price.answer - one : one - price.answer;
  return distance * denominator <= numerator * one;
}
