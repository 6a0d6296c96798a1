import { refusal } from "../../base/errors";
import { formatAmount } from "../../base/money";
import type { CatalogueToken } from "../../db/schema";

/**
 * The smallest payment session of a catalogue token (docs/design.md §18): the operator's
 * `--min-payment`, else the minimum forward (0: no floor beyond one base unit). A session below
 * the minimum forward would be swept on completion at the gas tank's cost for less than it moves.
 */
export function minimumPayment(entry: Pick<CatalogueToken, "minPaymentAmount" | "minForwardAmount">): bigint {
  return entry.minPaymentAmount ?? entry.minForwardAmount;
}

/** VALIDATION_ERROR on `field` when `units` is below the token's minimum payment. */
export function assertAtLeastMinimumPayment(
  field: string,
  units: bigint,
  minimum: bigint,
  token: { symbol: string; decimals: number },
): void {
  if (units >= minimum) return;
  const message = `${field} must be at least ${formatAmount(minimum, token.decimals)} ${token.symbol}: the smallest payment this gateway accepts in ${token.symbol}`;
  // A payment's reason (PAYMENT_REASONS in lib/domain/payments/reasons.ts, which imports this folder).
  throw refusal("VALIDATION_ERROR", "amount-below-minimum", message, [{ path: field, message }]);
}
