/** The webhook events of refunds, written to the outbox in the transaction that changes them. */

import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { paymentSessions, type Refund, tokens, withdrawals } from "../../db/schema";
import { audienceOf, notify } from "../notifications/outbox";
import { toRefundView } from "./refund-view";

export type RefundEventType = "refund.created" | "refund.completed" | "refund.failed";

/** `data` is the refund as the API shows it, plus the payment's metadata and domain. */
export async function enqueueRefundEvent(tx: Db, refund: Refund, type: RefundEventType, now = new Date()): Promise<number> {
  const [row] = await tx
    .select({
      domainId: paymentSessions.domainId,
      network: paymentSessions.network,
      metadata: paymentSessions.metadata,
      orderId: paymentSessions.orderId,
      token: { symbol: tokens.symbol, decimals: tokens.decimals },
    })
    .from(paymentSessions)
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .where(eq(paymentSessions.id, refund.sessionId));
  if (!row || row.domainId === null) return 0;
  const audience = await audienceOf(tx, [row.domainId]);
  if (!audience.listens(row.domainId)) return 0;
  const [withdrawal] = await tx
    .select({ id: withdrawals.id, txHash: withdrawals.txHash })
    .from(withdrawals)
    .where(eq(withdrawals.refundId, refund.id));
  const view = toRefundView({ refund, token: row.token, network: row.network, withdrawal: withdrawal ?? null });
  return notify(
    tx,
    [
      {
        domainId: row.domainId,
        type,
        // After the payment's own events: a receiver sees the payment before its refunds.
        orderKey: `session:${refund.sessionId}`,
        data: { ...view, orderId: row.orderId, metadata: (row.metadata as Record<string, unknown> | null) ?? null, domainId: row.domainId },
      },
    ],
    now,
    audience,
  );
}
