/**
 * Fiat amounts: ISO 4217 currencies we price in and their minor units; a decimal string such as
 * "25.00" ⇄ minor units (2500n). Bigint only, like token amounts (lib/base/money.ts).
 */

import { type AmountProblem, parseAmount } from "../../base/money";

/** Minor units (decimal places) per currency, from ISO 4217. USD needs no feed; the others need a currency_feeds row. */
export const FIAT_MINOR_UNITS: Readonly<Record<string, number>> = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  CHF: 2,
  CAD: 2,
  AUD: 2,
  JPY: 0,
};

export interface FiatAmount {
  /** ISO 4217, upper case. */
  currency: string;
  /** In the currency's minor units: 25.00 USD = 2500n. */
  minor: bigint;
  minorDigits: number;
}

export function isSupportedCurrency(currency: string): boolean {
  return Object.hasOwn(FIAT_MINOR_UNITS, currency);
}

/**
 * "25.00" in `currency` → its minor units. More decimals than the currency has, zero, a sign,
 * an exponent or anything but digits and one dot is a problem (the token amounts' rules, §4);
 * "25" and "25.5" are fine.
 */
export function parseFiatAmount(
  currency: string,
  value: string,
): { ok: true; amount: FiatAmount } | { ok: false; problem: AmountProblem | "currency-unsupported" } {
  if (!isSupportedCurrency(currency)) return { ok: false, problem: "currency-unsupported" };
  // biome-ignore lint/style/noNonNullAssertion: isSupportedCurrency checked the key is in the table
  const minorDigits = FIAT_MINOR_UNITS[currency]!;
  const minor = parseAmount(value, minorDigits);
  if (typeof minor === "string") return { ok: false, problem: minor };
  return { ok: true, amount: { currency, minor, minorDigits } };
}

/** Minor units → the currency's usual writing, every minor digit shown: 2500n USD → "25.00". */
export function formatFiatAmount(minor: bigint, minorDigits: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(minorDigits + 1, "0");
  const whole = digits.slice(0, digits.length - minorDigits);
  const fraction = digits.slice(digits.length - minorDigits);
  return `${negative ? "-" : ""}${whole}${minorDigits > 0 ? `.${fraction}` : ""}`;
}
