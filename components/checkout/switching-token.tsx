import { Loader2 } from "lucide-react";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";
import { fill } from "@/lib/web/i18n/locale";

/**
 * What stands where the wallet button, the QR code, the address, the amount and the contract go
 * while the server switches the payment to the token just picked (1–2.5 s): the old token's
 * figures pay nothing any more, so nothing of them is shown to be copied or scanned. Blocks of
 * about their size keep the page from jumping when the new ones arrive.
 */
export function SwitchingToken({ token, t }: { token: string; t: CheckoutMessages }) {
  return (
    <div className="grid gap-3" data-testid="switching-token" aria-busy="true">
      <p role="status" className="inline-flex items-center justify-center gap-2 text-sm font-medium">
        <Loader2 className="size-4 shrink-0 animate-spin motion-reduce:animate-none" aria-hidden />
        {fill(t.switchingToken, { token })}
      </p>
      <div className="grid justify-items-center gap-3" aria-hidden>
        <div className="h-12 w-full animate-pulse rounded-xl bg-muted" />
        <div className="size-52 animate-pulse rounded-xl bg-muted" />
        <div className="h-20 w-full animate-pulse rounded-xl bg-muted" />
        <div className="h-14 w-full animate-pulse rounded-xl bg-muted" />
      </div>
    </div>
  );
}
