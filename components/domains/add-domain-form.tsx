"use client";

import { Loader2, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { addDomainAction } from "@/lib/web/dashboard/domains/actions";

export function AddDomainForm() {
  const router = useRouter();
  const [domain, setDomain] = useState("");
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  const submit = () =>
    start(async () => {
      const result = await addDomainAction({ domain });
      if (!result.ok) {
        setError(result.fieldErrors?.domain ?? result.error);
        return;
      }
      setError(undefined);
      setDomain("");
      toast.success(`${result.data.domain} whitelisted`, {
        description: "Its withdrawal wallet is ready.",
      });
      router.refresh();
    });
  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Field label="Shop origin" error={error} hint="Scheme and host, e.g. https://shop.example.com — browsers send it as Origin.">
        {(control) => (
          <Input
            {...control}
            name="domain"
            placeholder="e.g. https://shop.example.com"
            value={domain}
            onChange={(e) => setDomain(e.target.value)}
            autoComplete="url"
          />
        )}
      </Field>
      <Button type="submit" disabled={pending || !domain.trim()} className="sm:mt-[1.375rem]">
        {pending ? <Loader2 className="animate-spin" aria-hidden /> : <Plus aria-hidden />} Add domain
      </Button>
    </form>
  );
}
