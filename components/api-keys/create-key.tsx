"use client";

import { KeyRound, Loader2, TriangleAlert } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { CopyButton } from "@/components/dashboard/copy-button";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { API_SCOPES, type ApiKeyKind, type ApiScope, isMoneyScope } from "@/lib/accounts/api-keys/scopes";
import { createApiKeyAction } from "@/lib/web/dashboard/api-keys/actions";
import { defaultScopes, KeyPowers } from "./key-powers";

/**
 * Creates a key (secret or publishable, with the scopes ticked) and shows it this one time, with a
 * copy button and a plain warning. The key is the member's: it offers the scopes their role may
 * grant (the money scopes only with their two-factor on), ticked by default; with two-factor on,
 * every key asks for a code.
 */
export function CreateApiKey({ twoFactor = false, grantable }: { twoFactor?: boolean; grantable: readonly ApiScope[] }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [code, setCode] = useState("");
  const [kind, setKind] = useState<ApiKeyKind>("secret");
  const [scopes, setScopes] = useState<ApiScope[]>(() => defaultScopes("secret", grantable, twoFactor));
  const [scopesError, setScopesError] = useState<string>();
  const [error, setError] = useState<string>();
  const [codeError, setCodeError] = useState<string>();
  const [created, setCreated] = useState<{ key: string; name: string; kind: ApiKeyKind; scopes: ApiScope[] } | null>(null);
  const chooseKind = (next: ApiKeyKind) => {
    setKind(next);
    setScopes(defaultScopes(next, grantable, twoFactor));
    setScopesError(undefined);
  };
  const moneyTicked = scopes.some(isMoneyScope);
  const [pending, start] = useTransition();
  const submit = () =>
    start(async () => {
      if (scopes.length === 0) {
        setScopesError("Tick at least one scope.");
        return;
      }
      const result = await createApiKeyAction({
        name: name.trim() || undefined,
        kind,
        scopes: API_SCOPES.filter((s) => scopes.includes(s)),
        ...(twoFactor ? { code: code.trim() } : {}),
      });
      if (!result.ok) {
        setCodeError(result.fieldErrors?.code);
        setScopesError(result.fieldErrors?.scopes);
        setError(result.fieldErrors?.code || result.fieldErrors?.scopes ? undefined : (result.fieldErrors?.name ?? result.error));
        return;
      }
      setError(undefined);
      setCodeError(undefined);
      setScopesError(undefined);
      setName("");
      setCode("");
      setCreated({ key: result.data.key, name: result.data.name, kind: result.data.kind, scopes: result.data.scopes });
      router.refresh();
    });
  return (
    <>
      <form
        className={
          twoFactor ? "grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-start" : "grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start"
        }
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <KeyPowers
          kind={kind}
          scopes={scopes}
          grantable={grantable}
          twoFactor={twoFactor}
          onKind={chooseKind}
          onScopes={(next) => {
            setScopes(next);
            setScopesError(undefined);
          }}
          error={scopesError}
        />
        <Field label="Key name" error={error} hint="What uses it, e.g. “shop backend”.">
          {(control) => (
            <Input
              {...control}
              name="name"
              maxLength={100}
              placeholder="e.g. shop backend"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        {twoFactor && (
          <Field
            label="Two-factor code"
            error={codeError}
            hint={
              moneyTicked ? "This key can send money out: your current code confirms it." : "Asked for every key while two-factor is on."
            }
          >
            {(control) => (
              <Input
                {...control}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder="e.g. 123456"
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            )}
          </Field>
        )}
        <Button type="submit" disabled={pending || (twoFactor && !code.trim())} className="sm:mt-[1.375rem]">
          {pending ? <Loader2 className="animate-spin" aria-hidden /> : <KeyRound aria-hidden />} Create key
        </Button>
      </form>
      <Dialog
        open={created !== null}
        onOpenChange={(open) => {
          if (!open) {
            setCreated(null);
            toast.success("API key created");
          }
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Your new API key{created?.name ? `: ${created.name}` : ""}</DialogTitle>
            <DialogDescription>
              {created?.kind === "publishable"
                ? "Send it as the x-api-key header from your shop's pages: it can create and read payments only."
                : "Send it as the x-api-key header from your shop's server."}{" "}
              It acts as you: never with more than your role allows.
            </DialogDescription>
          </DialogHeader>
          <p className="text-sm">
            Scopes: <span className="font-mono text-xs">{created?.scopes.join(", ")}</span>
          </p>
          <div className="flex items-center gap-2 rounded-lg border bg-muted/50 p-3">
            <code data-testid="new-api-key" className="min-w-0 flex-1 font-mono text-xs break-all select-all">
              {created?.key}
            </code>
            {created && <CopyButton value={created.key} label="Copy key" size="sm" />}
          </div>
          <p className="flex gap-2 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
            {created?.kind === "publishable"
              ? "This is the only time the key is shown: we keep only its hash. Copy it into your shop's pages now."
              : "This is the only time the key is shown: we keep only its hash. Store it in your shop's secrets now; never put it in browser code."}
          </p>
          <DialogFooter>
            <Button
              onClick={() => {
                setCreated(null);
                toast.success("API key created");
              }}
            >
              I have stored it
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
