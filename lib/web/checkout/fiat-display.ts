/** How a fiat-priced checkout writes its rates and prices: pure, shared by the page and its tests. */

export { displayRate } from "../../domain/pricing/display-rate";

/**
 * The share of a price that `part` of `whole` base units is ("25.00" × 7.5 / 10 → "18.75"), in the
 * price's own minor digits, rounded up: what a payer still owes is never shown as less than it is.
 */
export function fiatShare(fiatAmount: string, part: string, whole: string): string {
  const minorDigits = fiatAmount.split(".")[1]?.length ?? 0;
  const minor = BigInt(fiatAmount.replace(".", ""));
  const of = BigInt(whole);
  if (of <= 0n) return fiatAmount;
  const share = (minor * BigInt(part) + of - 1n) / of;
  if (minorDigits === 0) return share.toString();
  const digits = share.toString().padStart(minorDigits + 1, "0");
  return `${digits.slice(0, -minorDigits)}.${digits.slice(-minorDigits)}`;
}

/** Basis points as the percentage the payer reads, a decimal string: 50 → "0.5", 100 → "1", 25 → "0.25". */
export function percentOfBps(bps: number): string {
  const whole = Math.floor(bps / 100);
  const fraction = String(bps % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/**
 * The tokens that still pay the order, for the wrong-token warning: every quoted one until
 * something arrives, then only the token paid (the rest is owed in it; the picker is gone).
 * Undefined for a session priced in a token: its one token.
 */
export function tokensStillOffered(
  view: { token: string; fiat: { quotes: readonly { token: string }[] } | null },
  partial: boolean,
): string[] | undefined {
  if (!view.fiat) return undefined;
  return partial ? [view.token] : view.fiat.quotes.map((quote) => quote.token);
}
