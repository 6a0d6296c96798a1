"use client";

import { CopyButton } from "@/components/dashboard/copy-button";
import { Input } from "@/components/ui/input";

/**
 * A secret the page shows only now (a refund's claim link, a webhook signing secret): readable,
 * selectable and copyable while its dialog is open, and gone with it — the server never shows it
 * again, so the note says what to do instead.
 */
export function ShownOnce({
  id,
  label,
  value,
  copyLabel,
  note,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  copyLabel: string;
  note: string;
  testId?: string;
}) {
  return (
    <div className="grid gap-1.5" data-testid={testId}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <Input id={id} readOnly value={value} className="min-w-0 font-mono text-xs" onFocus={(e) => e.target.select()} />
        <CopyButton value={value} label={copyLabel} size="sm" className="shrink-0 border" />
      </div>
      <p className="text-xs text-muted-foreground">{note}</p>
    </div>
  );
}
