"use client";

import { LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { useId, useState, useTransition } from "react";
import { toast } from "sonner";
import { ConfirmAction } from "@/components/dashboard/confirm-action";
import { Button } from "@/components/ui/button";
import { signOutEverywhereAction } from "@/lib/web/dashboard/account/actions";

/**
 * Ends every dashboard session and bearer token of the account, this browser's included; and, when
 * ticked (off by default: the keys run the shop), every API key too — for a leaked key or a
 * session someone else held.
 */
export function SignOutEverywhere() {
  const [pending, start] = useTransition();
  const [revokeApiKeys, setRevokeApiKeys] = useState(false);
  const checkboxId = useId();
  const confirm = () =>
    start(async () => {
      const result = await signOutEverywhereAction({ revokeApiKeys });
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      await signOut({ callbackUrl: "/login" });
    });
  return (
    <ConfirmAction
      trigger={
        <Button variant="outline" disabled={pending} className="justify-self-start">
          <LogOut aria-hidden /> Sign out everywhere
        </Button>
      }
      title="Sign out everywhere?"
      description="Every browser signed in to this account, this one included, is signed out, and every bearer token of the user API stops working. API keys keep working unless you tick the box below."
      cancel="Stay signed in"
      confirm={revokeApiKeys ? "Sign out and revoke keys" : "Sign out everywhere"}
      onConfirm={confirm}
    >
      <div className="flex items-start gap-2.5 rounded-md border p-3 has-[:checked]:border-destructive">
        <input
          type="checkbox"
          id={checkboxId}
          checked={revokeApiKeys}
          onChange={(e) => setRevokeApiKeys(e.target.checked)}
          aria-describedby={`${checkboxId}-hint`}
          className="mt-0.5 size-4 accent-primary"
        />
        <div className="grid gap-0.5">
          <label htmlFor={checkboxId} className="text-sm font-medium">
            Also revoke every API key
          </label>
          <p id={`${checkboxId}-hint`} className="text-xs text-muted-foreground">
            Your shop stops taking payments until you create new keys and put them in its configuration.
          </p>
        </div>
      </div>
    </ConfirmAction>
  );
}
