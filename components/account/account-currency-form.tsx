"use client";

import { Loader2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/input";
import { setAccountCurrencyAction } from "@/lib/web/dashboard/account/actions";

/** The currency the overview's totals, its volume chart and the payments CSV are shown in. */
export function AccountCurrencyForm({ current, currencies }: { current: string; currencies: readonly string[] }) {
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  const router = useRouter();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const accountCurrency = String(new FormData(event.currentTarget).get("accountCurrency") ?? "");
    start(async () => {
      const result = await setAccountCurrencyAction({ accountCurrency });
      if (!result.ok) {
        setError(result.fieldErrors?.accountCurrency ?? result.error);
        return;
      }
      setError(undefined);
      toast.success(`Reports are now shown in ${result.data.accountCurrency}.`);
      router.refresh();
    });
  };
  return (
    <form onSubmit={submit} className="grid max-w-sm gap-4">
      <Field
        label="Account currency"
        hint="Payments priced in money keep their locked value; another currency is converted at today's rate, shown beside."
        error={error}
      >
        {(control) => (
          <NativeSelect {...control} name="accountCurrency" defaultValue={current} data-testid="account-currency">
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Button type="submit" disabled={pending} className="justify-self-start">
        {pending && <Loader2 className="animate-spin" aria-hidden />} Save
      </Button>
    </form>
  );
}
