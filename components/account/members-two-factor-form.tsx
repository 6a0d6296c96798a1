"use client";

import { Loader2, TriangleAlert } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { ROLE_WORDS } from "@/components/members/role-words";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { MemberWithoutTwoFactor } from "@/lib/web/dashboard/account/account-settings";
import { setMembersNeedTwoFactorAction } from "@/lib/web/dashboard/account/actions";

/**
 * The owner's switch "members need two-factor" (docs/design.md §26), saved with their own code. Turning
 * it on first lists the members it would hold to enrolling; without the owner's own two-factor the
 * switch waits (the card below turns it on).
 */
export function MembersTwoFactorForm({
  on,
  ownTwoFactor,
  unenrolled,
}: {
  on: boolean;
  ownTwoFactor: boolean;
  unenrolled: MemberWithoutTwoFactor[];
}) {
  const router = useRouter();
  const [wanted, setWanted] = useState(on);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  const changed = wanted !== on;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    start(async () => {
      const result = await setMembersNeedTwoFactorAction({ membersNeedTwoFactor: wanted, code: code.trim() });
      if (!result.ok) {
        setError(result.fieldErrors?.code ?? result.error);
        return;
      }
      setError(undefined);
      setCode("");
      toast.success(
        result.data.membersNeedTwoFactor
          ? "Members now need two-factor authentication."
          : "Members no longer need two-factor authentication.",
      );
      router.refresh();
    });
  };
  return (
    <form onSubmit={submit} className="grid max-w-xl gap-4" data-testid="members-two-factor">
      <div className="flex items-start gap-3">
        <button
          type="button"
          role="switch"
          id="members-need-two-factor"
          aria-checked={wanted}
          aria-describedby="members-need-two-factor-hint"
          disabled={!ownTwoFactor || pending}
          onClick={() => {
            setWanted(!wanted);
            setError(undefined);
          }}
          className={cn(
            "relative mt-0.5 inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors",
            "focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none",
            "disabled:cursor-not-allowed disabled:opacity-50",
            wanted ? "bg-primary" : "bg-input",
          )}
        >
          <span
            aria-hidden
            className={cn(
              "pointer-events-none block size-5 rounded-full bg-background shadow-sm ring-0 transition-transform",
              wanted ? "translate-x-5" : "translate-x-0",
            )}
          />
        </button>
        <div className="grid gap-1">
          <label htmlFor="members-need-two-factor" className="text-sm font-medium">
            Members need two-factor authentication
          </label>
          <p id="members-need-two-factor-hint" className="text-sm text-muted-foreground">
            {ownTwoFactor
              ? "Everyone whose role can send money out, approve it, manage API keys or choose payout addresses must sign in with a code. Until they turn it on, they can only enrol here, and the API keys they made are refused. Viewers are not asked."
              : "Turn on your own two-factor authentication below first: this rule is changed with your code."}
          </p>
        </div>
      </div>
      {wanted && unenrolled.length > 0 && (
        <div role="status" className="flex gap-2 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm" data-testid="unenrolled">
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
          <div className="grid min-w-0 gap-1">
            <p>
              {unenrolled.length === 1 ? "This member has" : `These ${unenrolled.length} members have`} no two-factor yet
              {on ? " and can only enrol:" : ": once you save, they can only enrol until they turn it on."}
            </p>
            <ul className="grid gap-0.5">
              {unenrolled.map((m) => (
                <li key={m.userId} className="[overflow-wrap:anywhere]">
                  {m.email} <span className="text-muted-foreground">({ROLE_WORDS[m.role].label.toLowerCase()})</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {changed && (
        <div className="grid gap-3 sm:grid-cols-[10rem_auto] sm:items-start">
          <Field label="Your two-factor code" error={error}>
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
          <Button type="submit" disabled={pending || !code.trim()} className="sm:mt-[1.375rem] sm:justify-self-start">
            {pending && <Loader2 className="animate-spin" aria-hidden />} {wanted ? "Require two-factor" : "Stop requiring it"}
          </Button>
        </div>
      )}
    </form>
  );
}
