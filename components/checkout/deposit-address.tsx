import { addressGroups } from "@/lib/checkout/address-groups";

/**
 * The address in groups of four, its first and last groups in bold. The gaps are margins, not
 * spaces, so selecting the text by hand still copies the plain address.
 */
export function DepositAddress({ address }: { address: string }) {
  return (
    <code
      data-testid="deposit-address"
      data-address={address}
      className="min-w-0 flex-1 text-left font-mono text-base leading-relaxed select-all"
    >
      {addressGroups(address).map((group, i) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: the groups are positions in a fixed-length address
          key={i}
          className={group.emphasis ? "me-1.5 inline-block font-bold text-foreground" : "me-1.5 inline-block text-muted-foreground"}
        >
          {group.text}
        </span>
      ))}
    </code>
  );
}
