import { TriangleAlert } from "lucide-react";
import Link from "next/link";
import { deliveriesHref } from "./deliveries-query";

/** Failed deliveries are never dropped silently: the card says so until they are redelivered. */
export function FailedDeliveriesAlert({ domainId, failed, showLink }: { domainId: number; failed: number; showLink: boolean }) {
  if (failed === 0) return null;
  return (
    <div className="flex gap-3 rounded-lg border border-destructive/30 bg-destructive/10 px-4 py-3 text-sm" data-testid="failed-deliveries">
      <TriangleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
      <p>
        <span className="font-medium text-destructive">
          {failed} {failed === 1 ? "delivery" : "deliveries"} failed
        </span>{" "}
        after every retry. Fix your endpoint, then redeliver {failed === 1 ? "it" : "them"}.{" "}
        {showLink && (
          <Link href={deliveriesHref(domainId, { status: "failed" })} scroll={false} className="font-medium underline underline-offset-4">
            Show failed deliveries
          </Link>
        )}
      </p>
    </div>
  );
}
