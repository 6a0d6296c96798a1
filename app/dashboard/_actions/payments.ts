"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { simulatePayment } from "@/lib/ops/seed/simulate-payment";
import { createDashboardPayment, type DashboardPayment, dashboardPaymentSchema } from "@/lib/web/dashboard/create-payment";
import { cancelUserPayment } from "@/lib/web/dashboard/payment-detail";
import { type ActionResult, runAction } from "@/lib/web/http/server-action";

const sessionIdSchema = z.object({ sessionId: z.string().uuid({ message: "not a payment id" }) });

export async function cancelPaymentAction(sessionId: string): Promise<ActionResult<{ message: string; status: string }>> {
  const result = await runAction(sessionIdSchema, { sessionId }, ({ db, user }, { sessionId: id }) => cancelUserPayment(db, user.id, id));
  revalidatePath(`/dashboard/payments/${sessionId}`);
  return result;
}

export async function simulatePaymentAction(sessionId: string): Promise<ActionResult<{ txHash: string }>> {
  return runAction(sessionIdSchema, { sessionId }, async ({ db, user }, { sessionId: id }) => ({
    txHash: (await simulatePayment(db, user.id, id)).txHash,
  }));
}

/** A one-off payment from the dashboard (no API key): the same checks and quota as the API's create. */
export async function createPaymentAction(input: unknown): Promise<ActionResult<DashboardPayment>> {
  const result = await runAction(dashboardPaymentSchema, input, ({ db, user }, data) => createDashboardPayment(db, user.id, data));
  if (result.ok) revalidatePath("/dashboard/payments");
  return result;
}
