"use client";

import { Loader2, RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { redeliverAction } from "@/lib/web/dashboard/webhooks/actions";

/** Sends the event again with the same webhook-id (receivers that already have it can skip it). */
export function RedeliverButton({ deliveryId, eventType }: { deliveryId: number; eventType: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const redeliver = () =>
    start(async () => {
      const result = await redeliverAction(deliveryId);
      if (!result.ok) toast.error("Not redelivered", { description: result.error });
      else toast.success(`${eventType} queued again`, { description: "Same webhook-id; its status updates here." });
      router.refresh();
    });
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      onClick={redeliver}
      disabled={pending}
      aria-label={`Redeliver ${eventType} delivery ${deliveryId}`}
    >
      {pending ? <Loader2 className="animate-spin" aria-hidden /> : <RotateCcw aria-hidden />}
      <span className="hidden sm:inline">Redeliver</span>
    </Button>
  );
}
