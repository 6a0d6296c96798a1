import { ChevronDown, ExternalLink } from "lucide-react";
import { isNativeToken } from "@/lib/engine/chain/native";
import type { CheckoutView } from "@/lib/web/checkout/checkout-view";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";
import { fill } from "@/lib/web/i18n/locale";
import { CopyButton } from "./copy-button";
import { DepositAddress } from "./deposit-address";
import { NetworkWarning } from "./network-notice";

/**
 * Paying by hand: the network warning, the QR code (for a wallet on another device: folded on a
 * phone, which cannot scan its own screen), the address and the amount to copy, the EIP-681 link.
 */
export function ManualPayment({
  view,
  offered,
  t,
  amount,
  networkName,
  intlTag,
  mobile,
}: {
  view: CheckoutView;
  /** The tokens that still pay the order (the warning names only these); undefined: the view's token alone. */
  offered: readonly string[] | undefined;
  t: CheckoutMessages;
  amount: (value: string) => string;
  networkName: string;
  intlTag: string;
  mobile: boolean;
}) {
  const qr = (
    <div className="grid justify-items-center gap-2">
      {/* eslint-disable-next-line @next/next/no-img-element -- a data URI, nothing to optimise */}
      <img
        src={view.qrCode}
        alt={fill(t.qrAlt, { amount: amount(view.remainingAmount), token: view.token, address: view.depositAddress })}
        data-payment-uri={view.paymentUri}
        width={208}
        height={208}
        className="rounded-xl bg-white p-2 shadow-sm"
      />
      <p className="text-xs text-muted-foreground">{t.scanQr}</p>
    </div>
  );
  return (
    <div className="grid justify-items-center gap-3 text-center">
      <NetworkWarning token={view.token} offered={offered} intlTag={intlTag} networkName={networkName} t={t} />
      {mobile ? (
        <details className="group w-full rounded-xl border" data-testid="qr-fold">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-2 px-3 py-2.5 text-sm font-medium [&::-webkit-details-marker]:hidden">
            {t.payFromAnotherDevice}
            <ChevronDown className="size-4 shrink-0 transition-transform group-open:rotate-180" aria-hidden />
          </summary>
          <div className="pb-3">{qr}</div>
        </details>
      ) : (
        qr
      )}
      <p className="text-sm">{fill(t.sendExactly, { token: view.token })}</p>
      <div className="grid w-full gap-2 rounded-xl border bg-muted/50 p-3">
        <DepositAddress address={view.depositAddress} />
        <div className="flex items-center justify-between gap-2">
          <span className="text-xs text-muted-foreground">{t.depositAddress}</span>
          <CopyButton value={view.depositAddress} label={t.copyAddress} t={t} />
        </div>
      </div>
      <div className="flex w-full items-center justify-between gap-2 rounded-xl border bg-muted/50 p-3 text-left">
        <span className="min-w-0 text-lg font-semibold break-all tabular-nums select-all" data-testid="remaining-amount">
          {amount(view.remainingAmount)} {view.token}
        </span>
        <CopyButton value={view.remainingAmount} label={t.copyAmount} t={t} />
      </div>
      {/* BNB itself has no contract to check against. */}
      {!isNativeToken(view.tokenAddress) && (
        <p className="w-full text-left text-xs break-all text-muted-foreground">
          {t.tokenContract}: <span className="font-mono">{view.tokenAddress}</span>
        </p>
      )}
      {!mobile && (
        <a
          href={view.paymentUri}
          data-testid="payment-uri"
          className="inline-flex items-center gap-1 text-sm font-medium underline underline-offset-4"
        >
          {t.openInWallet} <ExternalLink className="size-3.5" aria-hidden />
        </a>
      )}
    </div>
  );
}
