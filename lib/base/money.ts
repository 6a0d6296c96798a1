/**
 * Decimal strings ⇄ base units (bigint). Never a float: "10.5" with 18 decimals is
 * 10500000000000000000n, exactly.
 */

import { z } from "zod";

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
const MAX_UINT256 = 2n ** 256n - 1n;

export type AmountProblem = "format" | "zero" | "precision" | "range";

export function parseAmount(value: string, decimals: number): bigint | AmountProblem {
  const match = DECIMAL.exec(value);
  if (!match) return "format";
  // biome-ignore lint/style/noNonNullAssertion: group 1 of DECIMAL is not optional, so a match has it
  const whole = match[1]!;
  const fraction = match[2] ?? "";
  if (fraction.length > decimals) return "precision";
  if (whole.length + decimals > 78) return "range";
  const units = BigInt(whole + fraction.padEnd(decimals, "0"));
  if (units === 0n) return "zero";
  if (units > MAX_UINT256) return "range";
  return units;
}

/** Canonical decimal string: no trailing zeros, no trailing dot ("10.5", "3", "0.000001"). */
export function formatAmount(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/**
 * A decimal string for reading, never for money: rounded half up to at most `maxDecimals`
 * ("0.083166666666666667" → "0.08316667"), trailing zeros dropped, at least `minDecimals` kept
 * ("1.00000000" with 2 → "1.00"). The exact amount stays what is recorded and sent.
 */
export function readableDecimal(value: string, maxDecimals: number, minDecimals = 0): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return value;
  const [, sign, whole, fraction = ""] = match;
  let units = BigInt(`${whole}${fraction}`);
  let scale = fraction.length;
  if (scale > maxDecimals) {
    const drop = 10n ** BigInt(scale - maxDecimals);
    units = (units % drop) * 2n >= drop ? units / drop + 1n : units / drop;
    scale = maxDecimals;
  }
  const [int, frac = ""] = formatAmount(units, scale).split(".");
  const shown = frac.padEnd(minDecimals, "0");
  return `${sign}${int}${shown ? `.${shown}` : ""}`;
}

export function amountProblemMessage(field: string, problem: AmountProblem, decimals: number): string {
  switch (problem) {
    case "format":
      return `${field} must be a positive decimal string such as "10.5" (digits and one dot; no sign, exponent, spaces or commas)`;
    case "zero":
      return `${field} must be greater than 0`;
    case "precision":
      return `${field} has more than ${decimals} decimal places, the token's precision`;
    case "range":
      return `${field} is too large`;
  }
}

/** The wire shape: a string (a JSON number is refused, it may already have lost precision). */
export const amountStringSchema = (field: string) =>
  z
    .string({ error: `${field} must be a decimal string such as "10.5", not a number` })
    .max(100, { error: `${field} is too long` })
    .refine((v) => DECIMAL.test(v), {
      message: `${field} must be a positive decimal string such as "10.5" (digits and one dot; no sign, exponent, spaces or commas)`,
    });
