"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { cancelRefund } from "../../../domain/refunds/cancel-refund";
import { issueClaimLink } from "../../../domain/refunds/claim-link";
import { previewRefund, type RefundPreview, refundFromDashboard } from "../../../domain/refunds/dashboard-refunds";
import type { RefundView } from "../../../domain/refunds/refund-view";
import { createRefundSchema } from "../../../domain/refunds/schemas";
import { type ActionResult, runAction } from "../shared/server-action";

/** The API's schema, plus the payment, the form's id (a double click refunds once) and the two-factor code when it is on. */
const dashboardRefundSchema = createRefundSchema.extend({
  sessionId: z.string().uuid({ message: "not a payment id" }),
  requestId: z.string().uuid({ message: "reload the page and try again" }),
  code: z.string().max(32).optional(),
});

export async function refundPaymentAction(input: unknown): Promise<ActionResult<RefundView>> {
  const result = await runAction("money", dashboardRefundSchema, input, ({ db, ...principal }, { sessionId, requestId, code, ...refund }) =>
    refundFromDashboard(db, principal, sessionId, refund, requestId, code),
  );
  if (result.ok) revalidatePaths(result.data.sessionId);
  return result;
}

const previewSchema = z.object({
  sessionId: z.string().uuid({ message: "not a payment id" }),
  fiatAmount: createRefundSchema.shape.fiatAmount,
});

/** A fiat refund's tokens at today's rate, shown before the merchant confirms; nothing is recorded. */
export async function previewRefundAction(input: unknown): Promise<ActionResult<RefundPreview>> {
  return runAction("money", previewSchema, input, ({ db, account }, { sessionId, fiatAmount }) =>
    previewRefund(db, account.id, sessionId, fiatAmount),
  );
}

const refundIdSchema = z.object({ refundId: z.string().uuid({ message: "not a refund id" }) });

/** Cancel a refund nobody has claimed yet: its claim link stops working. */
export async function cancelRefundAction(refundId: string): Promise<ActionResult<RefundView>> {
  const result = await runAction("money", refundIdSchema, { refundId }, ({ db, account }, { refundId: id }) =>
    cancelRefund(db, { userId: account.id }, id),
  );
  if (result.ok) revalidatePaths(result.data.sessionId);
  return result;
}

const claimLinkSchema = refundIdSchema.extend({ code: z.string().max(32).optional() });

/**
 * A new claim link for a refund the member created (the old link stops working); with two-factor
 * on, a current code. The answer is the one place the link appears.
 */
export async function issueClaimLinkAction(refundId: string, code?: string): Promise<ActionResult<RefundView>> {
  const input = { refundId, code: code?.trim() || undefined };
  const result = await runAction("money", claimLinkSchema, input, ({ db, ...principal }, data) =>
    issueClaimLink(db, { acting: principal, code: data.code }, data.refundId),
  );
  if (result.ok) revalidatePaths(result.data.sessionId);
  return result;
}

function revalidatePaths(sessionId: string) {
  revalidatePath(`/dashboard/payments/${sessionId}`);
  revalidatePath("/dashboard/payments");
}
