import { groupDigits } from "@/components/dashboard/format";

/**
 * BNB to 6 decimals, cut (never rounded up) as text; the exact amount in the title. Gas is spent
 * in millionths of a BNB, so 6 places are where the figures differ.
 */
export function shortBnb(exact: string): string {
  const [whole, fraction = ""] = exact.split(".");
  const cut = fraction.slice(0, 6).replace(/0+$/, "");
  if (whole === "0" && cut === "" && /[1-9]/.test(fraction)) return "< 0.000001";
  // biome-ignore lint/style/noNonNullAssertion: split always returns at least one part
  return groupDigits(cut ? `${whole}.${cut}` : whole!);
}

export function Bnb({ value, className }: { value: string; className?: string }) {
  return (
    <span className={`whitespace-nowrap tabular-nums ${className ?? ""}`} title={`${value} BNB`}>
      {shortBnb(value)} <span className="text-muted-foreground">BNB</span>
    </span>
  );
}
