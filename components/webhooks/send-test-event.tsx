"use client";

import { Loader2, Send } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { sendTestEventAction } from "@/lib/web/dashboard/webhooks/actions";

/** Queues a `ping`: the quickest way to check that a receiver answers and verifies signatures. */
export function SendTestEvent({ domainId }: { domainId: number }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const send = () =>
    start(async () => {
      const result = await sendTestEventAction(domainId);
      if (!result.ok) toast.error("Test event not sent", { description: result.error });
      else toast.success("Test event queued", { description: `A ping (${result.data.eventId}) is on its way; its status updates below.` });
      router.refresh();
    });
  return (
    <Button type="button" variant="outline" size="sm" onClick={send} disabled={pending}>
      {pending ? <Loader2 className="animate-spin" aria-hidden /> : <Send aria-hidden />} Send test event
    </Button>
  );
}
