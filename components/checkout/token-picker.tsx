"use client";

import { Check, Lock, TriangleAlert } from "lucide-react";
import { useId, useState } from "react";
import type { CheckoutQuote, CheckoutView } from "@/lib/web/checkout/checkout-view";
import { displayRate } from "@/lib/web/checkout/fiat-display";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";
import { fill } from "@/lib/web/i18n/locale";

export interface TokenPickerProps {
  view: CheckoutView & { fiat: NonNullable<CheckoutView["fiat"]> };
  t: CheckoutMessages;
  amount: (value: string) => string;
  /**
   * The token being switched to while the server is asked (null once it answered): until then the
   * page blanks the old token's amount, address and contract, which no longer pay the order.
   */
  onChoosing: (token: string | null) => void;
  /** The new view once the server has switched the token. */
  onChosen: (view: CheckoutView) => void;
}

/**
 * A fiat-priced payment's tokens (docs/design.md §23): each with its exact amount at the locked quote,
 * the rate, and a notice when the token is off its peg; the one the payment asks for now is
 * checked. Native radio inputs, so the arrow keys, Space and a screen reader work as everywhere.
 * Choosing another asks the server (POST /api/checkout/:id/token) and shows the answer's view:
 * the amount, the QR code and the wallet button then ask for that token. The quotes are locked
 * until the session ends: the page's one countdown (StatusBlock) says how long that is.
 */
export function TokenPicker({ view, t, amount, onChoosing, onChosen }: TokenPickerProps) {
  const name = useId();
  const [choosing, setChoosing] = useState<CheckoutQuote | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const current = view.fiat.quotes.find((q) => q.tokenAddress === view.tokenAddress) ?? null;
  const checked = choosing ?? current;

  async function choose(quote: CheckoutQuote) {
    if (choosing || quote.tokenId === current?.tokenId) return;
    setChoosing(quote);
    onChoosing(quote.token);
    setFailed(null);
    const res = await fetch(`/api/checkout/${view.sessionId}/token`, {
      method: "POST",
      cache: "no-store",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tokenId: quote.tokenId }),
    }).catch(() => null);
    const body = res?.ok ? ((await res.json().catch(() => null)) as { data: CheckoutView } | null) : null;
    if (body?.data) onChosen(body.data);
    else setFailed(fill(t.chooseFailed, { token: quote.token, current: view.token }));
    setChoosing(null);
    onChoosing(null);
  }

  return (
    <div className="grid gap-2" data-testid="token-picker">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
        <p id={`${name}-label`} className="text-sm font-medium">
          {t.chooseToken}
        </p>
        <p className="inline-flex items-center gap-1 text-xs text-muted-foreground" data-testid="rates-locked">
          <Lock className="size-3" aria-hidden />
          {t.ratesLocked}
        </p>
      </div>
      <div role="radiogroup" aria-labelledby={`${name}-label`} aria-busy={choosing !== null} className="grid gap-2">
        {view.fiat.quotes.map((quote) => {
          const selected = checked?.tokenId === quote.tokenId;
          const id = `${name}-${quote.tokenId}`;
          return (
            <label
              key={quote.tokenId}
              htmlFor={id}
              data-testid="token-option"
              data-token={quote.token}
              className={`flex cursor-pointer items-start gap-3 rounded-xl border p-3 text-left transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring ${
                selected ? "border-primary bg-primary/5 ring-1 ring-primary" : "hover:bg-accent"
              }`}
            >
              <input
                id={id}
                type="radio"
                name={name}
                value={quote.tokenId}
                checked={selected}
                onChange={() => void choose(quote)}
                className="sr-only"
                aria-describedby={`${id}-detail`}
              />
              <span
                className={`mt-0.5 grid size-5 shrink-0 place-items-center rounded-full border-2 ${
                  selected ? "border-primary bg-primary text-primary-foreground" : "border-muted-foreground/50"
                }`}
                aria-hidden
              >
                {selected && <Check className="size-3" strokeWidth={3} />}
              </span>
              <span className="grid min-w-0 flex-1 gap-0.5">
                <span className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <span className="font-semibold">{quote.token}</span>
                  {/* An 18-decimal amount may wrap between digits, never inside the symbol. */}
                  <span className="min-w-0 font-semibold tabular-nums" data-testid="option-amount">
                    <span className="break-all">{amount(quote.amount)}</span>
                    {"\u00a0"}
                    {quote.token}
                  </span>
                </span>
                <span id={`${id}-detail`} className="grid gap-0.5">
                  <span className="text-xs text-muted-foreground tabular-nums">
                    {fill(t.rateLine, {
                      token: quote.token,
                      rate: amount(displayRate(quote.rate)),
                      currency: view.fiat.currency,
                    })}
                  </span>
                  {quote.offPeg && (
                    <span className="inline-flex items-start gap-1 text-xs text-foreground" data-testid="off-peg">
                      <TriangleAlert className="mt-px size-3.5 shrink-0 text-warning" aria-hidden />
                      {fill(t.offPegNotice, { token: quote.token })}
                    </span>
                  )}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      {failed && (
        <p role="alert" className="text-center text-xs text-destructive" data-testid="choose-failed">
          {failed}
        </p>
      )}
    </div>
  );
}
