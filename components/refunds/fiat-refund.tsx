"use client";

import { AlertTriangle, Loader2, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { displayRate } from "@/lib/domain/pricing/display-rate";
import type { RefundPreview } from "@/lib/domain/refunds/dashboard-refunds";
import { previewRefundAction } from "@/lib/web/dashboard/refunds/actions";
import { AMOUNT_WORDS } from "@/lib/web/dashboard/shared/refusal-words";
import { sentence } from "./sentence";

/** The preview of a fiat refund: its tokens at today's rate, or why there is none. */
export type Preview =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "ready"; preview: RefundPreview }
  | { state: "error"; words: string; onField: boolean };

/** Why a fiat refund cannot be priced now (`refund-rate-unavailable`'s detail), in the dialog's words. */
const RATE_WORDS: Record<string, string> = {
  "feed-stale": "its price feed has not been updated recently",
  depegged: "it is more than 3 % away from its peg",
  "feed-not-configured": "no price feed is set for it",
};

/**
 * Today's tokens for the fiat amount, asked again (after a pause in typing) whenever it changes
 * while `active`; only the latest answer counts. `forget` drops an answer still on its way.
 */
export function useFiatPreview(sessionId: string, token: string, active: boolean, fiatAmount: string) {
  const [preview, setPreview] = useState<Preview>({ state: "idle" });
  const asked = useRef(0);
  const load = useCallback(
    async (value: string) => {
      const mine = ++asked.current;
      if (!value.trim()) return setPreview({ state: "idle" });
      setPreview({ state: "loading" });
      const result = await previewRefundAction({ sessionId, fiatAmount: value.trim() });
      if (mine !== asked.current) return;
      if (result.ok) return setPreview({ state: "ready", preview: result.data });
      setPreview(previewRefusal(result, token));
    },
    [sessionId, token],
  );
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => void load(fiatAmount), 300);
    return () => clearTimeout(timer);
  }, [active, fiatAmount, load]);
  const forget = () => {
    asked.current++;
  };
  return { preview, setPreview, retry: () => void load(fiatAmount), forget };
}

/** The fiat amount of a fiat refund, and under it what it is in tokens today (a live region: read out as it changes). */
export function FiatAmountField({
  currency,
  price,
  value,
  onChange,
  error,
  preview,
  retry,
}: {
  currency: string;
  price: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  preview: Preview;
  retry: () => void;
}) {
  return (
    <div className="grid gap-2">
      <Field
        label={`Amount in ${currency}`}
        error={error}
        hint={`Prefilled with the whole price (${price} ${currency}); type less for a part of it.`}
      >
        {(control) => (
          <div className="flex items-center gap-2">
            <Input
              {...control}
              name="fiatAmount"
              inputMode="decimal"
              autoComplete="off"
              value={value}
              onChange={(e) => onChange(e.target.value)}
              required
            />
            <span className="text-sm text-muted-foreground">{currency}</span>
          </div>
        )}
      </Field>
      <div
        aria-live="polite"
        className="min-h-10 rounded-md border bg-muted/40 p-3 text-sm [overflow-wrap:anywhere]"
        data-testid="refund-preview"
      >
        {preview.state === "loading" && (
          <span className="flex items-center gap-2 text-muted-foreground">
            <Loader2 className="size-4 animate-spin" aria-hidden /> Reading today&apos;s rate…
          </span>
        )}
        {preview.state === "idle" && <span className="text-muted-foreground">Type an amount to see what it is in tokens today.</span>}
        {preview.state === "ready" && (
          <div className="grid gap-1">
            <p>
              The payer gets{" "}
              <strong className="font-semibold">
                {preview.preview.amount} {preview.preview.token}
              </strong>{" "}
              for {preview.preview.fiatAmount} {preview.preview.currency}.
            </p>
            <p className="text-xs text-muted-foreground">
              At {displayRate(preview.preview.rate)} {preview.preview.currency} per {preview.preview.token} (rounded up in the payer&apos;s
              favour), read {new Date(preview.preview.ratedAt).toLocaleTimeString()}. At most {preview.preview.atMost}{" "}
              {preview.preview.currency} can go back now. The rate is read again when you confirm.
            </p>
          </div>
        )}
        {preview.state === "error" && !preview.onField && (
          <div className="grid gap-2">
            <p className="flex items-start gap-2 text-destructive" role="alert">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden /> {preview.words}
            </p>
            <div>
              <Button type="button" variant="outline" size="sm" onClick={retry}>
                <RefreshCw aria-hidden /> Try again
              </Button>
            </div>
          </div>
        )}
        {preview.state === "error" && preview.onField && (
          <span className="text-muted-foreground">Fix the amount to see what it is in tokens.</span>
        )}
      </div>
    </div>
  );
}

/** A refused preview: on the amount field (a bad or too large amount), or in the preview box (no rate now). */
function previewRefusal(result: { error: string; reason?: string; fieldErrors?: Record<string, string> }, token: string): Preview {
  if (result.reason === "refund-rate-unavailable") {
    const why = Object.values(result.fieldErrors ?? {})[0] ?? "";
    const detail = Object.entries(RATE_WORDS).find(([key]) => why.toLowerCase().includes(key))?.[1] ?? "its price cannot be read right now";
    return {
      state: "error",
      onField: false,
      words: `No refund in fiat right now: ${token} has no usable rate (${detail}). Refund the tokens paid instead, or try again later.`,
    };
  }
  const onField = result.fieldErrors?.fiatAmount;
  if (result.reason && result.reason in AMOUNT_WORDS)
    return { state: "error", onField: true, words: AMOUNT_WORDS[result.reason as keyof typeof AMOUNT_WORDS] };
  if (onField) return { state: "error", onField: true, words: sentence(onField) };
  return { state: "error", onField: false, words: sentence(result.error) };
}
