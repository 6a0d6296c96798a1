/** How every page writes a rate (the checkout's picker, a refund at today's rate, the overview's conversions). Pure. */

/**
 * A rate ("0.99950000": fiat per whole token, or one currency in another; 8 decimals) as people
 * read it: 2 to 4 decimals, rounded half up at the 4th, trailing zeros past the 2nd dropped:
 * "1.00", "0.9995", "600.00", "155.20" (a rate under 0.0001 keeps its 8). The stored rate stays
 * exact: this is display only. A string and bigint operation, never a float.
 */
export function displayRate(rate: string): string {
  const [whole = "0", fraction = ""] = rate.split(".");
  const scaled = BigInt(`${whole}${fraction.padEnd(8, "0").slice(0, 8)}`);
  // 8 decimals → 4, half up.
  const rounded = (scaled + 5_000n) / 10_000n;
  // A token worth under 0.0001 of the currency would read "0.00": its 8 decimals then, trimmed.
  if (rounded === 0n && scaled > 0n) return `0.${fraction.padEnd(8, "0").slice(0, 8).replace(/0+$/, "")}`;
  const digits = rounded.toString().padStart(5, "0");
  const shownWhole = digits.slice(0, -4);
  const shownFraction = digits.slice(-4).replace(/0+$/, "").padEnd(2, "0");
  return `${shownWhole}.${shownFraction}`;
}
