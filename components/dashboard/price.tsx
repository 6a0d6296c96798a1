/**
 * A payment's price as the dashboard shows it (docs/design.md §23): a fiat price is the headline
 * ("25.00 USD"), with the token amount asked (or paid, once completed) and its locked rate under it
 * in smaller muted type; a token price is its amount alone. Token amounts and rates are rounded for
 * reading only (readableDecimal): the exact amount is in the title, the CSV and the API.
 */
import { Amount, groupDigits } from "@/components/dashboard/format";
import { cn } from "@/components/ui/cn";
import { readableDecimal } from "@/lib/base/money";

export interface PriceOf {
  amount: string;
  token: string;
  /** What arrived (null or "0" when nothing did). */
  receivedAmount: string | null;
  status: string;
  /** A fiat-priced payment's currency, price ("25.00") and rate (fiat per whole token); null when priced in a token. */
  currency: string | null;
  fiatAmount: string | null;
  rate: string | null;
}

/** Up to 8 decimals: enough to tell amounts apart, short enough to read at a glance. */
const READABLE_DECIMALS = 8;

export function isFiatPriced(p: PriceOf): p is PriceOf & { currency: string; fiatAmount: string } {
  return p.currency !== null && p.fiatAmount !== null;
}

/** The headline: the fiat price, else the token amount. */
export function PriceHeadline({ price, className }: { price: PriceOf; className?: string }) {
  return isFiatPriced(price) ? (
    <Amount value={price.fiatAmount} symbol={price.currency} className={className} />
  ) : (
    <Amount value={price.amount} symbol={price.token} className={className} />
  );
}

/** A token amount rounded for reading, with "≈" and the exact amount in its title when rounded. */
export function ReadableAmount({ value, symbol }: { value: string; symbol: string }) {
  const shown = readableDecimal(value, READABLE_DECIMALS);
  return (
    <span className="whitespace-nowrap tabular-nums" title={shown === value ? undefined : `${value} ${symbol}`}>
      {shown === value ? "" : "≈ "}
      {groupDigits(shown)} {symbol}
    </span>
  );
}

/** Under a fiat headline: the token amount asked (paid, once completed) and the rate; nothing for a token price. */
export function PriceDetail({ price, className }: { price: PriceOf; className?: string }) {
  if (!isFiatPriced(price)) return null;
  const paid = price.status === "completed" && price.receivedAmount !== null && price.receivedAmount !== "0";
  return (
    <span className={cn("flex flex-wrap gap-x-1.5 text-xs font-normal text-muted-foreground", className)} data-testid="price-detail">
      <span>
        {paid ? "paid " : ""}
        <ReadableAmount value={paid ? (price.receivedAmount ?? price.amount) : price.amount} symbol={price.token} />
      </span>
      {price.rate && (
        <span className="whitespace-nowrap tabular-nums">
          · 1 {price.token} = {groupDigits(readableDecimal(price.rate, READABLE_DECIMALS, 2))} {price.currency}
        </span>
      )}
    </span>
  );
}
