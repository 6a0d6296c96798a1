import { addressGroups } from "@/lib/web/checkout/address-groups";

/**
 * The address in groups of four, its first and last groups in bold. The gaps are margins, not
 * spaces, so selecting the text by hand still copies the plain address.
 */
export function DepositAddress({ address }: { address: string }) {
  return (
    <code data-testid="deposit-address" data-address={address} className="min-w-0 text-left font-mono text-base leading-relaxed select-all">
      {/* two lines of five groups: the same shape at every width, nothing left dangling */}
      {[addressGroups(address).slice(0, 6), addressGroups(address).slice(6)].map((line, l) => (
        <span key={l === 0 ? "first" : "second"} className="block">
          {line.map((group) => (
            <span
              key={group.text + String(l)}
              className={group.emphasis ? "me-1.5 inline-block font-bold text-foreground" : "me-1.5 inline-block text-muted-foreground"}
            >
              {group.text}
            </span>
          ))}
        </span>
      ))}
    </code>
  );
}
