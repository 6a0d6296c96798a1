/**
 * What a fiat session's deposits pay (DESIGN.md §23). Each offered token has its locked quote; the
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
