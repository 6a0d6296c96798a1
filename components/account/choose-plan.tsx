"use client";

import { Loader2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { choosePlanAction } from "@/lib/web/dashboard/plan/actions";

export function ChoosePlanButton({ plan, name }: { plan: string; name: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const choose = () =>
    start(async () => {
      const result = await choosePlanAction(plan);
      if (!result.ok) toast.error(result.error);
      else toast.success(`${name} plan active`);
      router.refresh();
    });
  return (
    <Button onClick={choose} disabled={pending} variant="brand">
      {pending && <Loader2 className="animate-spin" aria-hidden />} Choose {name}
    </Button>
  );
}
