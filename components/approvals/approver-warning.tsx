import { TriangleAlert } from "lucide-react";
import Link from "next/link";
import type { ApproverWarning } from "@/lib/web/dashboard/approvals/approval-words";

/** Above the thresholds: nobody (or only one person) could approve what a threshold holds back, and what to do about it. */
export function ApproverWarningNote({ warning }: { warning: ApproverWarning }) {
  return (
    <div role="status" className="flex gap-2 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm" data-testid="approver-warning">
      <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
      <p className="grid gap-1">
        <span>{warning.text}</span>
        <Link href={warning.link.href} className="w-fit font-medium underline underline-offset-4">
          {warning.link.label}
        </Link>
      </p>
    </div>
  );
}
