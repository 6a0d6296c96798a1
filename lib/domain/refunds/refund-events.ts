/** The webhook events of refunds, written to the outbox in the transaction that changes them. */

import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { paymentSessions, type Refund, tokens, type WebhookDelivery, withdrawals } from "../../db/schema";
import { endpointsForEvents } from "../webhooks/endpoints";
import { insertDeliveries } from "../webhooks/outbox";
import { toRefundView } from "./refund-view";

export type RefundEventType = "refund.created" | "refund.completed" | "refund.failed";

/** `data` is the refund as the API shows it, plus the payment's metadata and domain. */
export async function enqueueRefundEvent(tx: Db, refund: Refund, type: RefundEventType, now = new Date()): Promise<WebhookDelivery[]> {
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
  if (!row || row.domainId === null) return [];
  const endpoints = await endpointsForEvents(tx, [row.domainId]);
  if (!endpoints.has(row.domainId)) return [];
  const [withdrawal] = await tx
    .select({ id: withdrawals.id, txHash: withdrawals.txHash })
    .from(withdrawals)
    .where(eq(withdrawals.refundId, refund.id));
  const view = toRefundView({ refund, token: row.token, network: row.network, withdrawal: withdrawal ?? null });
  return insertDeliveries(
    tx,
    endpoints,
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
  );
}
