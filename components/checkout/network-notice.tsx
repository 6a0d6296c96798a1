import { FlaskConical, Network, TriangleAlert } from "lucide-react";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";
import { fill } from "@/lib/web/i18n/locale";

/** Which chain this is — a test chain said plainly to be no real money. */
export function NetworkChip({ network, networkName, t }: { network: string; networkName: string; t: CheckoutMessages }) {
  const test = network !== "bsc";
  return (
    <div className="flex flex-wrap items-center justify-center gap-1.5" data-testid="network">
      <span className="inline-flex items-center gap-1 rounded-full border bg-muted/60 px-2.5 py-0.5 text-xs font-medium">
        <Network className="size-3.5 shrink-0" aria-hidden />
        {startCapitalised(fill(t.networkChip, { network: networkName }))}
      </span>
      {test && (
        <span className="inline-flex items-center gap-1 rounded-full border border-warning/40 bg-warning/10 px-2.5 py-0.5 text-xs font-medium">
          <FlaskConical className="size-3.5 shrink-0 text-warning" aria-hidden />
          {t.testNetwork}
        </span>
      )}
    </div>
  );
}

/** A label starts with a capital, though the network's name is written for the middle of a sentence ("cadena de pruebas local"). */
function startCapitalised(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/**
 * Tokens sent on another chain, or another token, never pay the session: say so before the address.
 * A session priced in money takes every token it quoted (`offered`, the asked one first), so all are named.
 */
export function NetworkWarning({
  token,
  offered,
  intlTag,
  networkName,
  t,
}: {
  token: string;
  offered?: readonly string[];
  intlTag: string;
  networkName: string;
  t: CheckoutMessages;
}) {
  const others = (offered ?? []).filter((symbol) => symbol !== token);
  const text =
    others.length === 0
      ? fill(t.networkWarning, { token, network: networkName })
      : fill(t.networkWarningOffered, {
          tokens: new Intl.ListFormat(intlTag, { type: "disjunction" }).format([token, ...new Set(others)]),
          network: networkName,
        });
  return (
    <p
      className="flex w-full items-start gap-2 rounded-xl border border-warning/40 bg-warning/10 p-3 text-left text-sm"
      data-testid="network-warning"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
      <span>{text}</span>
    </p>
  );
}
