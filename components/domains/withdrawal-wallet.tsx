import { Address } from "@/components/dashboard/address";
import { Amount } from "@/components/dashboard/format";
import { Bnb } from "@/components/gas/bnb";
import { qrCodeDataUri } from "@/lib/domain/payments/eip681";

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
      {/* BNB to 6 places (the exact figure in its title): 18 decimals would run out of the card. */}
      <ul className="grid gap-1 text-sm" data-testid="wallet-balances">
        {balances.map((b) => (
          <li key={b.key} className="flex flex-wrap justify-between gap-x-2">
            {/* The label only when it says more than the symbol the amount already shows (the network, where several run). */}
            {b.label !== b.symbol && <span className="text-muted-foreground">{b.label}</span>}
            {b.balance === null ? (
              <span className="text-muted-foreground">{b.label === b.symbol ? `${b.symbol} unavailable` : "unavailable"}</span>
            ) : b.symbol === "BNB" ? (
              <Bnb value={b.balance} />
            ) : (
              <Amount value={b.balance} symbol={b.symbol} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
