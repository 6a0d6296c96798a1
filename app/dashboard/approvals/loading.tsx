import { Skeleton } from "@/components/ui/skeleton";

export default function ApprovalsLoading() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading" className="grid gap-6">
      <div className="grid gap-2">
        <Skeleton className="h-7 w-40" />
        <Skeleton className="h-4 w-96 max-w-full" />
      </div>
      <Skeleton className="h-56" />
      <Skeleton className="h-48" />
      <Skeleton className="h-40" />
    </div>
  );
}
