/**
 * What a waiting approval's row offers its viewer: Approve and Reject; for their own request
 * Withdraw (and, when nobody else could approve it, who to invite); and to a viewer who may
 * approve but has no two-factor yet, the way to Settings instead of a dialog they could not answer.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { buttonVariants } from "@/components/ui/button";
import { INVITE_APPROVER, NEEDS_TWO_FACTOR, NOBODY_ELSE, SETTINGS_TWO_FACTOR } from "@/lib/web/dashboard/approvals/approval-words";
import { ApproveButton, RejectButton } from "./approval-actions";

export function WaitingActions({
  approvalId,
  own,
  viewerHasTwoFactor,
  someoneElseCanApprove,
  what,
  contentHash,
  details,
}: {
  approvalId: string;
  own: boolean;
  viewerHasTwoFactor: boolean;
  someoneElseCanApprove: boolean;
  what: string;
  contentHash: string | null;
  details: ReactNode;
}) {
  return (
    <span className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center sm:justify-end">
      {own ? (
        <span title="You asked for it: a second member must approve it">
          <button type="button" disabled className="cursor-not-allowed text-sm text-muted-foreground" data-testid="approve-own">
            Approve (not yours to approve)
          </button>
        </span>
      ) : viewerHasTwoFactor ? (
        <ApproveButton approvalId={approvalId} what={what} contentHash={contentHash} details={details} />
      ) : (
        <span className="grid gap-0.5 text-xs text-muted-foreground sm:text-right" data-testid="approve-needs-two-factor">
          {NEEDS_TWO_FACTOR}
          <Link
            href={SETTINGS_TWO_FACTOR.href}
            className={buttonVariants({ size: "sm", variant: "secondary", className: "w-fit sm:ml-auto" })}
          >
            {SETTINGS_TWO_FACTOR.label}
          </Link>
        </span>
      )}
      <RejectButton approvalId={approvalId} own={own} />
      {own && !someoneElseCanApprove && (
        <span className="grid gap-0.5 text-xs text-muted-foreground sm:basis-full sm:text-right" data-testid="nobody-else-approves">
          {NOBODY_ELSE}
          <Link href={INVITE_APPROVER.href} className="font-medium text-foreground underline underline-offset-4">
            {INVITE_APPROVER.label}
          </Link>
        </span>
      )}
    </span>
  );
}
