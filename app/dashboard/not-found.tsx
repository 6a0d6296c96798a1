import { SearchX } from "lucide-react";
import Link from "next/link";
import { EmptyState } from "@/components/dashboard/empty-state";
import { buttonVariants } from "@/components/ui/button";

export default function DashboardNotFound() {
  return (
    <EmptyState
      icon={SearchX}
      title="Not found"
      description="There is nothing here, or it belongs to another account."
      action={
        <Link href="/dashboard" className={buttonVariants({ variant: "outline", size: "sm" })}>
          Back to the overview
        </Link>
      }
    />
  );
}
