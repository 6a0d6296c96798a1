import { Address } from "@/components/dashboard/address";
import { Amount } from "@/components/dashboard/format";
import { qrCodeDataUri } from "@/lib/checkout/eip681";

export interface WalletBalance {
  key: string;
  label: string;
  symbol: string;
  balance: string | null;
}

/** The domain's withdrawal wallet: QR, address and what it holds (null = the node did not answer). */
export function WithdrawalWallet({ domain, address, balances }: { domain: string; address: string; balances: WalletBalance[] }) {
  return (
    <section aria-label={`Withdrawal wallet of ${domain}`} className="grid content-start gap-3 rounded-lg border bg-muted/30 p-4">
      <p className="text-sm font-medium">Withdrawal wallet</p>
      {/* eslint-disable-next-line @next/next/no-img-element -- a data URI */}
      <img
        src={qrCodeDataUri(`ethereum:${address}`)}
        alt={`QR code of the withdrawal wallet ${address}`}
        width={148}
        height={148}
        className="rounded-md bg-white p-1"
      />
      <Address value={address} />
      <ul className="grid gap-1 text-sm">
        {balances.map((b) => (
          <li key={b.key} className="flex justify-between gap-2">
            <span className="text-muted-foreground">{b.label}</span>
            {b.balance === null ? (
              <span className="text-muted-foreground">unavailable</span>
            ) : (
              <Amount value={b.balance} symbol={b.symbol} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
