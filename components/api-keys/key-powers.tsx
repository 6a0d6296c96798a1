"use client";

import { RadioChoice } from "@/components/ui/radio-choice";
import { API_SCOPES, type ApiKeyKind, type ApiScope, PUBLISHABLE_SCOPES } from "@/lib/accounts/api-keys/scopes";

/** In merchant words: what each scope lets a key do. */
export const SCOPE_LABELS: Record<ApiScope, string> = {
  "payments:write": "Create and cancel payments",
  "payments:read": "Read payments",
  refunds: "Refund payments",
  withdrawals: "Send withdrawals",
  payouts: "Choose where a payment's tokens go (merchantWallet)",
};

/** The kind of a new key and its scopes; a publishable key offers only the payment scopes. */
export function KeyPowers({
  kind,
  scopes,
  onKind,
  onScopes,
  error,
}: {
  kind: ApiKeyKind;
  scopes: ApiScope[];
  onKind: (kind: ApiKeyKind) => void;
  onScopes: (scopes: ApiScope[]) => void;
  error?: string;
}) {
  const offered = kind === "publishable" ? PUBLISHABLE_SCOPES : API_SCOPES;
  return (
    <div className="grid min-w-0 gap-4 sm:col-span-full md:grid-cols-2">
      <fieldset className="grid min-w-0 gap-2">
        <legend className="mb-2 text-sm font-medium">Kind</legend>
        <RadioChoice
          name="kind"
          value="secret"
          checked={kind === "secret"}
          onChange={() => onKind("secret")}
          label="Secret key"
          hint="For your shop's server only. Can hold every scope; browsers never get its answers."
        />
        <RadioChoice
          name="kind"
          value="publishable"
          checked={kind === "publishable"}
          onChange={() => onKind("publishable")}
          label="Publishable key"
          hint="Safe in browser code: creates and reads payments only, from your whitelisted domains."
        />
      </fieldset>
      <fieldset className="grid min-w-0 content-start gap-2" aria-describedby={error ? "scopes-error" : undefined}>
        <legend className="mb-2 text-sm font-medium">Scopes</legend>
        {offered.map((scope) => (
          <div key={scope} className="flex items-start gap-2.5">
            <input
              type="checkbox"
              id={`scope-${scope}`}
              name="scopes"
              value={scope}
              checked={scopes.includes(scope)}
              onChange={(e) => onScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
              className="mt-0.5 size-4 accent-primary"
            />
            <label htmlFor={`scope-${scope}`} className="grid text-sm">
              <span className="font-mono text-xs">{scope}</span>
              <span className="text-muted-foreground">{SCOPE_LABELS[scope]}</span>
            </label>
          </div>
        ))}
        {error && (
          <p id="scopes-error" role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
      </fieldset>
    </div>
  );
}
