"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";

/**
 * Copies `value` as it is (never the grouped display of it). Its name says what it copies
 * ("Copy address"); its text is the language's own "Copy" / "Copied", whole — never cut out of
 * a longer label, which reads as a fragment in languages whose verb is not the first word.
 */
export function CopyButton({ value, label, t }: { value: string; label: string; t: Pick<CheckoutMessages, "copy" | "copied"> }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      // The name holds the visible word (WCAG 2.5.3): "Copy address", then "Copy address: Copied".
      aria-label={copied ? `${label}: ${t.copied}` : label}
      data-copy-value={value}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
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
