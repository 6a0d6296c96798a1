"use client";

import { Ban, FlaskConical, Loader2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { toast } from "sonner";
import { ConfirmAction } from "@/components/dashboard/confirm-action";
import { Button } from "@/components/ui/button";
import { cancelPaymentAction, simulatePaymentAction } from "@/lib/web/dashboard/payments/actions";

export function CancelPaymentButton({ sessionId }: { sessionId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const cancel = () =>
    start(async () => {
      const result = await cancelPaymentAction(sessionId);
      if (!result.ok) toast.error(result.error);
      else toast.success(result.data.status === "cancelled" ? "Payment cancelled" : result.data.message);
      router.refresh();
    });
  return (
    <ConfirmAction
      trigger={
        <Button variant="outline" disabled={pending}>
          {pending ? <Loader2 className="animate-spin" aria-hidden /> : <Ban aria-hidden />} Cancel payment
        </Button>
      }
      title="Cancel this payment?"
      description="The payer can no longer complete it. Funds that arrive anyway are recorded as late and still forwarded to you; a transfer mined before the cancel still completes it."
      cancel="Keep it"
      confirm="Cancel payment"
      onConfirm={cancel}
    />
  );
}

/** Local chain only: pay the rest from the embedded chain's funded demo account, then watch it land. */
export function SimulatePaymentButton({ sessionId }: { sessionId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [watching, setWatching] = useState(false);
  useEffect(() => {
    if (!watching) return;
    const timer = setInterval(() => router.refresh(), 1500);
    const stop = setTimeout(() => setWatching(false), 30_000);
    return () => {
      clearInterval(timer);
      clearTimeout(stop);
    };
  }, [watching, router]);
  const simulate = () =>
    start(async () => {
      const result = await simulatePaymentAction(sessionId);
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      toast.success("Payment sent from the demo wallet", { description: "It completes once the next block confirms it." });
      setWatching(true);
      router.refresh();
    });
  return (
    <Button variant="brand" onClick={simulate} disabled={pending}>
      {pending ? <Loader2 className="animate-spin" aria-hidden /> : <FlaskConical aria-hidden />} Simulate payment
    </Button>
  );
}

/** While a payment or its forward is still moving, keep the page fresh. */
export function AutoRefresh({ every = 3000 }: { every?: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), every);
    return () => clearInterval(timer);
  }, [router, every]);
  return null;
}
