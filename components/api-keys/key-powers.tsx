"use client";

import { RadioChoice } from "@/components/ui/radio-choice";
import { API_SCOPES, type ApiKeyKind, type ApiScope, isMoneyScope, PUBLISHABLE_SCOPES } from "@/lib/accounts/api-keys/scopes";

/** In merchant words: what each scope lets a key do. */
export const SCOPE_LABELS: Record<ApiScope, string> = {
  "payments:write": "Create and cancel payments",
  "payments:read": "Read payments",
  refunds: "Refund payments",
  withdrawals: "Send withdrawals",
  // What POST /api/v1/payouts needs first; setting a payment's merchantWallet needs it too.
  payouts: "Send payouts (POST /api/v1/payouts), and set a payment's merchantWallet",
};

/** Why a scope cannot be ticked, or null when it can. */
export function scopeBlocked(scope: ApiScope, grantable: readonly ApiScope[], twoFactor: boolean): string | null {
  if (!grantable.includes(scope)) return "Your role cannot grant this.";
  if (isMoneyScope(scope) && !twoFactor) return "Sends money out: turn on two-factor authentication in Settings first.";
  return null;
}

/** What a new key of this kind gets unless changed: every scope it may hold that the member may grant now. */
export function defaultScopes(kind: ApiKeyKind, grantable: readonly ApiScope[], twoFactor: boolean): ApiScope[] {
  return (kind === "publishable" ? PUBLISHABLE_SCOPES : API_SCOPES).filter((scope) => scopeBlocked(scope, grantable, twoFactor) === null);
}

/**
 * The kind of a new key and its scopes; a publishable key offers only the payment scopes. A scope
 * the member's role cannot grant, or a money scope while they have no two-factor, is shown but
 * cannot be ticked, with the reason beside it.
 */
export function KeyPowers({
  kind,
  scopes,
  grantable,
  twoFactor,
  onKind,
  onScopes,
  error,
}: {
  kind: ApiKeyKind;
  scopes: ApiScope[];
  /** The scopes the member's role may grant (lib/accounts/api-keys/scopes.ts scopesOfRole). */
  grantable: readonly ApiScope[];
  twoFactor: boolean;
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
          hint="For your shop's server only. Can hold every scope your role may grant; browsers never get its answers."
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
        {offered.map((scope) => {
          const blocked = scopeBlocked(scope, grantable, twoFactor);
          return (
            <div key={scope} className="flex items-start gap-2.5" data-scope={scope} data-blocked={blocked ? "true" : undefined}>
              <input
                type="checkbox"
                id={`scope-${scope}`}
                name="scopes"
                value={scope}
                checked={scopes.includes(scope)}
                disabled={blocked !== null}
                aria-describedby={blocked ? `scope-${scope}-blocked` : undefined}
                onChange={(e) => onScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
                className="mt-0.5 size-4 accent-primary disabled:opacity-50"
              />
              <label htmlFor={`scope-${scope}`} className="grid min-w-0 text-sm">
                <span className="font-mono text-xs">{scope}</span>
                <span className="text-muted-foreground">{SCOPE_LABELS[scope]}</span>
                {blocked && (
                  <span id={`scope-${scope}-blocked`} className="text-xs text-muted-foreground italic">
                    {blocked}
                  </span>
                )}
              </label>
            </div>
          );
        })}
        {error && (
          <p id="scopes-error" role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
      </fieldset>
    </div>
  );
}
