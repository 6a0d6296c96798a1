"use client";

import { Loader2, Search } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { networkLabel } from "@/lib/web/dashboard/shared/wording";
import { previewTokenAction, registerTokenAction } from "@/lib/web/dashboard/tokens/actions";

/** OPEN_TOKEN_REGISTRATION: any ERC-20, looked up on the chain before it is saved. */
export function CustomTokenForm({ networks }: { networks: string[] }) {
  const router = useRouter();
  const [network, setNetwork] = useState(networks[0] ?? "");
  const [contractAddress, setContract] = useState("");
  const [preview, setPreview] = useState<{ symbol: string; name: string; decimals: number } | null>(null);
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  const lookUp = () =>
    start(async () => {
      setError(undefined);
      const result = await previewTokenAction({ contractAddress, network });
      if (result.ok) setPreview(result.data);
      else setError(result.fieldErrors?.contractAddress ?? result.error);
    });
  const save = () =>
    start(async () => {
      const result = await registerTokenAction({ contractAddress, network });
      if (!result.ok) {
        setError(result.error);
        return;
      }
      toast.success(`${result.data.symbol} registered`);
      setContract("");
      setPreview(null);
      router.refresh();
    });
  return (
    <form
      className="grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        if (preview) save();
        else lookUp();
      }}
    >
      <div className="sm:col-span-3">
        <FormError>{error}</FormError>
      </div>
      <Field label="Network">
        {(control) => (
          <NativeSelect
            {...control}
            value={network}
            onChange={(e) => {
              setNetwork(e.target.value);
              setPreview(null);
            }}
          >
            {networks.map((n) => (
              <option key={n} value={n}>
                {networkLabel(n)}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Field label="Contract address">
        {(control) => (
          <Input
            {...control}
            className="font-mono"
            placeholder="0x…"
            value={contractAddress}
            onChange={(e) => {
              setContract(e.target.value);
              setPreview(null);
            }}
          />
        )}
      </Field>
      <Button type="submit" disabled={pending || !contractAddress}>
        {pending ? <Loader2 className="animate-spin" aria-hidden /> : preview ? null : <Search aria-hidden />}
        {preview ? `Register ${preview.symbol}` : "Look up"}
      </Button>
      {preview && (
        <p className="text-sm sm:col-span-3" role="status">
          The chain says: <span className="font-medium">{preview.symbol}</span> ({preview.name}), {preview.decimals} decimals.
        </p>
      )}
    </form>
  );
}
