/**
 * What a fiat session's deposits pay (docs/design.md §23). Each offered token has its locked quote; the
 * session settles in the token of its first counted deposit (by block and log index), and a deposit
 * of another offered token is credited at the two quotes' ratio, in the settlement token's units:
 * paying exactly one token's quote credits exactly the settlement token's. Pure.
 */

import type { TransferFacts } from "./session-state";

export interface LockedQuote {
  tokenId: number;
  /** Lower-case contract. */
  contract: string;
  amount: bigint;
  rate: string;
  /** The quote's source and time (session_quotes). */
  source?: string;
  quotedAt?: Date;
}

export interface OfferedDeposit extends TransferFacts {
  /** Lower-case contract. */
  contract: string;
}

/** The quote of the first deposit's token, else `current` (the token the payer is asked for now). */
export function settlementQuote(
  current: LockedQuote,
  quotes: ReadonlyMap<string, LockedQuote>,
  deposits: readonly OfferedDeposit[],
): LockedQuote {
  let first: OfferedDeposit | undefined;
  for (const deposit of deposits) {
    if (!quotes.has(deposit.contract)) continue;
    if (
      !first ||
      deposit.blockNumber < first.blockNumber ||
      (deposit.blockNumber === first.blockNumber && deposit.logIndex < first.logIndex)
    )
      first = deposit;
  }
  return (first && quotes.get(first.contract)) || current;
}

/** `amount` of the `from` token in units of `to`, at their quotes, rounded down (the merchant is never credited more than arrived). */
export function creditIn(to: LockedQuote, from: LockedQuote, amount: bigint): bigint {
  if (from.tokenId === to.tokenId) return amount;
  return (amount * to.amount) / from.amount;
}

/**
 * A fiat session's thresholds (docs/design.md §23), its domain's or else the gateway's: short by less than
 * `underpayBps` counts as paid (0, the default: the whole price but the rounding, shortfallUnitsOf); a transfer after the window is re-priced at its block's rate, which
 * may differ from the locked quote's by at most `rateToleranceBps`.
 */
export interface FiatThresholds {
  underpayBps: bigint;
  rateToleranceBps: bigint;
}

/** Is `blockRate` within `toleranceBps` of the locked `quoteRate` (both in rate units)? |block − quote| ≤ quote × bps / 10,000. */
export function rateWithinTolerance(quoteRate: bigint, blockRate: bigint, toleranceBps: bigint): boolean {
  if (quoteRate <= 0n || blockRate <= 0n) return false;
  const distance = blockRate > quoteRate ? blockRate - quoteRate : quoteRate - blockRate;
  return distance * 10_000n <= quoteRate * toleranceBps;
}

/**
 * A late transfer's credit at its block's rate: `credit` (at its token's locked quote, in the
 * settlement token's units) × blockRate ÷ quoteRate, rounded down — what arrived is worth that much
 * of the price at the block's rate.
 */
export function repricedCredit(credit: bigint, quoteRate: bigint, blockRate: bigint): bigint {
  if (quoteRate <= 0n) throw new RangeError("a rate is positive");
  return (credit * blockRate) / quoteRate;
}

/**
 * Could a late transfer count once re-priced (the scanner's cheap filter before queueing it, no
 * RPC)? Only if, even at the most favourable rate the tolerance allows, what counted in the window
 * plus this credit covers the price within the underpay threshold, or but for `shortfallUnits` base
 * units (the rounding allowance); dust is never queued.
 */
export function mayCountRepriced(
  price: bigint,
  countedInWindow: bigint,
  credit: bigint,
  thresholds: FiatThresholds,
  shortfallUnits = 1n,
): boolean {
  const best = countedInWindow * 10_000n + credit * (10_000n + thresholds.rateToleranceBps);
  return best + shortfallUnits * 10_000n >= price * 10_000n || best > price * (10_000n - thresholds.underpayBps);
}

/**
 * A fiat session's rounding allowance in base units of the token it settles in: one per offered
 * token that paid in time (a quote is rounded to the base unit, and so is each credit converted
 * from another token's quote); one before anything arrived. FIAT_UNDERPAY_BPS = 0 means this.
 */
export function shortfallUnitsOf(paidWith: Iterable<string>): bigint {
  const tokens = new Set([...paidWith].map((contract) => contract.toLowerCase()));
  return BigInt(Math.max(1, tokens.size));
}
