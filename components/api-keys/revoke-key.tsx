"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { ConfirmAction } from "@/components/dashboard/confirm-action";
import { Button } from "@/components/ui/button";
import { revokeApiKeyAction } from "@/lib/web/dashboard/api-keys/actions";

export function RevokeApiKey({ id, name }: { id: number; name: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const revoke = () =>
    start(async () => {
      const result = await revokeApiKeyAction(id);
      if (!result.ok) toast.error(result.error);
      else toast.success(`Key “${name}” revoked`);
      router.refresh();
    });
  return (
    <ConfirmAction
      trigger={
        <Button
          variant="ghost"
          size="sm"
          className="text-destructive hover:text-destructive"
          disabled={pending}
          aria-label={`Revoke key ${name}`}
        >
          Revoke
        </Button>
      }
      title={<>Revoke “{name}”?</>}
      description="Requests with this key fail at once. Payments it created keep working; this cannot be undone."
      cancel="Keep it"
      confirm="Revoke key"
      onConfirm={revoke}
    />
  );
}
