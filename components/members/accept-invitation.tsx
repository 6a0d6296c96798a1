"use client";

import { Loader2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { acceptInvitationAction } from "@/lib/web/dashboard/members/actions";

/** Join: the signed-in user becomes a member, and the dashboard opens in the account. */
export function AcceptInvitation({ token }: { token: string }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  return (
    <div className="grid gap-3">
      <FormError>{error}</FormError>
      <Button
        disabled={pending}
        onClick={() =>
          start(async () => {
            const result = await acceptInvitationAction(token);
            if (!result.ok) {
              setError(result.error);
              return;
            }
            router.replace("/dashboard");
            router.refresh();
          })
        }
      >
        {pending && <Loader2 className="animate-spin" aria-hidden />} Join the account
      </Button>
    </div>
  );
}
