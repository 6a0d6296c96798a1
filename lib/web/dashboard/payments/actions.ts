"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { simulatePayment } from "../../../ops/seed/simulate-payment";
import { type ActionResult, runAction } from "../shared/server-action";
import { createDashboardPayment, type DashboardPayment, dashboardPaymentSchema } from "./create-payment";
import { cancelUserPayment } from "./payment-detail";

const sessionIdSchema = z.object({ sessionId: z.string().uuid({ message: "not a payment id" }) });

export async function cancelPaymentAction(sessionId: string): Promise<ActionResult<{ message: string; status: string }>> {
  const result = await runAction("payments", sessionIdSchema, { sessionId }, ({ db, account }, { sessionId: id }) =>
    cancelUserPayment(db, account.id, id),
  );
  revalidatePath(`/dashboard/payments/${sessionId}`);
  return result;
}

export async function simulatePaymentAction(sessionId: string): Promise<ActionResult<{ txHash: string }>> {
  return runAction("payments", sessionIdSchema, { sessionId }, async ({ db, account }, { sessionId: id }) => ({
    txHash: (await simulatePayment(db, account.id, id)).txHash,
  }));
}

/** A one-off payment from the dashboard (no API key): the same checks and quota as the API's create. */
export async function createPaymentAction(input: unknown): Promise<ActionResult<DashboardPayment>> {
  const result = await runAction("payments", dashboardPaymentSchema, input, ({ db, account }, data) =>
    createDashboardPayment(db, account.id, data),
  );
  if (result.ok) revalidatePath("/dashboard/payments");
  return result;
}
