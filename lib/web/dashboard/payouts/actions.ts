"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import {
  dashboardPayoutSchema,
  type PayoutReview,
  reviewPayoutCsv,
  sendPayoutsFromDashboard,
} from "../../../domain/payouts/dashboard-payouts";
import type { PayoutBatchView } from "../../../domain/payouts/payout-view";
import { type ActionResult, runAction } from "../shared/server-action";

/** The review's input, plus the form's id that makes a double click send once, and the two-factor code when it is on. */
const sendSchema = dashboardPayoutSchema.extend({
  requestId: z.string().uuid({ message: "reload the page and try again" }),
  code: z.string().max(32).optional(),
});

/** Checks the uploaded file as the API would, and records nothing. */
export async function reviewPayoutsAction(input: unknown): Promise<ActionResult<PayoutReview>> {
  return runAction("money", dashboardPayoutSchema, input, ({ db, ...principal }, data) => reviewPayoutCsv(db, principal, data));
}

/** Records the batch (once per requestId) and starts sending it. */
export async function sendPayoutsAction(input: unknown): Promise<ActionResult<PayoutBatchView>> {
  const result = await runAction("money", sendSchema, input, async ({ db, ...principal }, { requestId, code, ...rest }) => {
    const { view } = await sendPayoutsFromDashboard(db, principal, rest, requestId, code);
    return view;
  });
  revalidatePath("/dashboard/payouts");
  return result;
}
