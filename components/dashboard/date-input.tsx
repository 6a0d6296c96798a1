import type { ComponentProps } from "react";
import { Input } from "@/components/ui/input";

/**
 * A date typed in the dashboard's own format, YYYY-MM-DD (UTC), the one every page shows. A
 * native date picker would show the browser's locale format (03/04/2026: March or April?) beside
 * tables in another; the label names the format and the browser checks it before the form is sent.
 * No numeric inputMode: an iPhone's number pad has no "-". YYYYMMDD is taken too (the filter
 * schema writes it back as YYYY-MM-DD), for whoever types digits only.
 */
export function DateInput({ defaultValue, ...props }: Omit<ComponentProps<"input">, "type" | "defaultValue"> & { defaultValue?: string }) {
  return (
    <Input
      type="text"
      pattern="\d{4}-?\d{2}-?\d{2}"
      placeholder="YYYY-MM-DD"
      title="A date as YYYY-MM-DD, e.g. 2026-03-04"
      autoComplete="off"
      spellCheck={false}
      maxLength={10}
      defaultValue={defaultValue ?? ""}
      {...props}
    />
  );
}
