/** Dates as the same text on the server and in the browser (UTC), so pages hydrate cleanly. */
export function formatDateTime(iso: string | Date | null | undefined): string {
  if (!iso) return "—";
  const date = typeof iso === "string" ? new Date(iso) : iso;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function formatDate(iso: string | Date | null | undefined): string {
  if (!iso) return "—";
  return (typeof iso === "string" ? new Date(iso) : iso).toISOString().slice(0, 10);
}

/** "1234567.5" → "1,234,567.5": digits grouped as text, never through a float. */
export function groupDigits(decimal: string): string {
  const [whole, fraction] = decimal.split(".");
  // biome-ignore lint/style/noNonNullAssertion: split always returns at least one part
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction ? `${grouped}.${fraction}` : grouped;
}

export function Amount({ value, symbol, className }: { value: string | null; symbol: string; className?: string }) {
  if (value === null) return <span className={className}>—</span>;
  return (
    <span className={`whitespace-nowrap tabular-nums ${className ?? ""}`}>
      {groupDigits(value)} <span className="text-muted-foreground">{symbol}</span>
    </span>
  );
}
