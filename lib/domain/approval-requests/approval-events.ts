/** The webhook events of approvals, written to the outbox in the transaction that writes the approval. */

import { eq } from "drizzle-orm";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type Approval, tokens } from "../../db/schema";
import { enqueueEvents } from "../webhooks/outbox";

export type ApprovalEventType = "approval.requested" | "approval.approved" | "approval.rejected";

/** To the endpoint of the domain whose wallet pays (none: no event). */
export async function enqueueApprovalEvent(tx: Db, approval: Approval, type: ApprovalEventType, now = new Date()): Promise<void> {
  if (approval.domainId === null) return;
  const token = requireRow(
    await tx.select({ symbol: tokens.symbol, decimals: tokens.decimals }).from(tokens).where(eq(tokens.id, approval.tokenId)),
    `token ${approval.tokenId} of approval ${approval.id}`,
  );
  await enqueueEvents(
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
        },
      },
    ],
    now,
  );
}
