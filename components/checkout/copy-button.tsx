"use client";

import { Check, Copy } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";

/** Said by the button just pressed, so every other one goes back to "Copy": one "Copied" on the page at a time. */
const COPIED_EVENT = "bscpay:copied";

/**
 * Copies `value` as it is (never the grouped display of it). Its name says what it copies
 * ("Copy address"); its text is the language's own "Copy" / "Copied", whole — never cut out of
 * a longer label, which reads as a fragment in languages whose verb is not the first word. Only
 * the button pressed last says "Copied": the address's copy after the amount's was copied says
 * the amount is no longer what the clipboard holds.
 */
export function CopyButton({ value, label, t }: { value: string; label: string; t: Pick<CheckoutMessages, "copy" | "copied"> }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    const onCopied = (event: Event) => {
      if ((event as CustomEvent<string>).detail !== id) setCopied(false);
    };
    window.addEventListener(COPIED_EVENT, onCopied);
    return () => {
      window.removeEventListener(COPIED_EVENT, onCopied);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [id]);
  return (
    <button
      type="button"
      // The name holds the visible word (WCAG 2.5.3): "Copy address", then "Copy address: Copied".
      aria-label={copied ? `${label}: ${t.copied}` : label}
      data-copy-value={value}
      data-copied={copied || undefined}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          window.dispatchEvent(new CustomEvent(COPIED_EVENT, { detail: id }));
          setCopied(true);
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => setCopied(false), 1500);
        } catch {
          setCopied(false);
        }
      }}
      className="inline-flex shrink-0 items-center gap-1 rounded-lg bg-primary px-3 py-1.5 text-xs font-medium whitespace-nowrap text-primary-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      {copied ? <Check className="size-3.5" aria-hidden /> : <Copy className="size-3.5" aria-hidden />}
      <span aria-live="polite">{copied ? t.copied : t.copy}</span>
    </button>
  );
}
