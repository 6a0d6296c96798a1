"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sendWithdrawalSchema } from "../../../domain/withdrawals/schemas";
import { sendWithdrawalFromDashboard } from "../../../domain/withdrawals/send";
import { availableToWithdraw } from "../../../domain/withdrawals/user-withdrawals";
import { forgetBalances } from "../../../domain/withdrawals/wallet-balances";
import type { WithdrawalView } from "../../../domain/withdrawals/withdrawal-view";
import { type ActionResult, runAction } from "../shared/server-action";

const balanceSchema = z.object({ domainId: z.coerce.number().int().positive(), tokenId: z.coerce.number().int().positive() });
/** The API's schema, plus the form's id that makes a double click send once, and the two-factor code when it is on. */
const dashboardSendSchema = sendWithdrawalSchema.extend({
  requestId: z.string().uuid({ message: "reload the page and try again" }),
  code: z.string().max(32).optional(),
});

export async function withdrawalBalanceAction(
  domainId: number,
  tokenId: number,
): Promise<ActionResult<Awaited<ReturnType<typeof availableToWithdraw>>>> {
  return runAction("money", balanceSchema, { domainId, tokenId }, ({ db, account }, input) =>
    availableToWithdraw(db, account.id, input.domainId, input.tokenId),
  );
}

export async function sendWithdrawalAction(input: unknown): Promise<ActionResult<WithdrawalView>> {
  const result = await runAction("money", dashboardSendSchema, input, async ({ db, ...principal }, { requestId, code, ...send }) => {
    const { view } = await sendWithdrawalFromDashboard(db, principal, send, requestId, code);
    forgetBalances(view.fromAddress);
    return view;
  });
  revalidatePath("/dashboard/withdrawals");
  return result;
}
