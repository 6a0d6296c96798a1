import type { ComponentProps, ReactNode } from "react";
import { Field } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/input";

/** A choice the forms offer by id: a domain (its wallet pays or receives) or a token. */
export interface Option {
  id: number;
  label: string;
}

/**
 * The domain and token pickers of the money forms (a payment, a payment link, a withdrawal, a
 * payout): a labelled select of `options`, the rest of its props passed to the select. `empty`
 * is the one choice shown when there is none (the form stays blocked until there is).
 */
export function OptionField({
  label,
  hint,
  error,
  options,
  empty,
  ...select
}: {
  label: string;
  hint?: ReactNode;
  error?: string;
  options: readonly Option[];
  empty?: string;
} & Omit<ComponentProps<"select">, "children" | "id">) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => (
        <NativeSelect {...control} {...select}>
          {empty !== undefined && options.length === 0 && <option value="">{empty}</option>}
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      )}
    </Field>
  );
}
