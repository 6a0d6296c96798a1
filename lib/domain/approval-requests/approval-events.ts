/** The webhook events of approvals, written to the outbox in the transaction that writes the approval. */

import { eq } from "drizzle-orm";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type Approval, tokens } from "../../db/schema";
import { notify } from "../notifications/outbox";
import { type ApprovalContent, type ApprovalSummary, approvalContent } from "./content";

export type ApprovalEventType = "approval.requested" | "approval.approved" | "approval.rejected";

/**
 * To the endpoint of the domain whose wallet pays (none: no event). It says what the money does —
 * where it goes, the payment a refund belongs to, a payout's first items — so an approver reading
 * it decides on what would be sent (content.ts); never a claim link or secret.
 */
export async function enqueueApprovalEvent(
  tx: Db,
  approval: Approval,
  type: ApprovalEventType,
  now = new Date(),
  known?: ApprovalContent | null,
): Promise<void> {
  if (approval.domainId === null) return;
  const token = requireRow(
    await tx.select({ symbol: tokens.symbol, decimals: tokens.decimals }).from(tokens).where(eq(tokens.id, approval.tokenId)),
    `token ${approval.tokenId} of approval ${approval.id}`,
  );
  const content = known === undefined ? await approvalContent(tx, approval) : known;
  await notify(
    tx,
    [
      {
        domainId: approval.domainId,
        type,
        orderKey: `approval:${approval.id}`,
        data: {
          approvalId: approval.id,
          kind: approval.kind,
          subjectId: approval.subjectId,
          amount: formatAmount(approval.amount, token.decimals),
          token: token.symbol,
          status: approval.status,
          reason: approval.reason,
          expiresAt: approval.expiresAt.toISOString(),
          decidedBy: approval.decidedByUserId,
          decidedAt: approval.decidedAt?.toISOString() ?? null,
          ...contentFields(content, token.decimals),
        },
      },
    ],
    now,
  );
}

/** What the money does, on the wire: the destination, a refund's payment, a payout's items (the first few; count and total). */
export function contentFields(content: (ApprovalSummary & { hash: string | null }) | null, decimals: number) {
  return {
    toAddress: content?.toAddress ?? null,
    payment: content?.payment ?? null,
    items: content?.items
      ? {
          count: content.items.count,
          first: content.items.first.map((i) => ({ ...i, amount: formatAmount(i.amount, decimals) })),
        }
      : null,
    contentHash: content?.hash ?? null,
  };
}
