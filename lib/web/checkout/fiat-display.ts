/** How a fiat-priced checkout writes its rates: pure, shared by the page and its tests. */

/**
 * A quote's rate ("0.99950000", fiat per whole token, 8 decimals) as the payer reads it: trailing
 * zeros dropped, but never fewer decimals than the price has ("25.00" → at least 2): "1.00",
 * "0.9995", "155.2" in JPY. A string operation, never a float.
 */
export function displayRate(rate: string, fiatAmount: string): string {
  const minorDigits = fiatAmount.split(".")[1]?.length ?? 0;
  const [whole = "0", fraction = ""] = rate.split(".");
  const trimmed = fraction.replace(/0+$/, "");
  const shown = trimmed.length >= minorDigits ? trimmed : fraction.slice(0, minorDigits).padEnd(minorDigits, "0");
  return shown ? `${whole}.${shown}` : whole;
}

/** Basis points as the percentage the payer reads, a decimal string: 50 → "0.5", 100 → "1", 25 → "0.25". */
export function percentOfBps(bps: number): string {
  const whole = Math.floor(bps / 100);
  const fraction = String(bps % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}
