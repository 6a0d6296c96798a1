"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { setApprovalPolicy } from "../../../domain/approval-requests/policies";
import { approve, reject } from "../../../domain/approvals/decide";
import { approvalPolicySchema, approveSchema, rejectSchema } from "../../../domain/approvals/schemas";
import { runAction } from "../shared/server-action";

const approvalId = z.object({ approvalId: z.string().trim().min(1).max(64) });

/** A second member approves with their two-factor code: the money goes out. */
export async function approveAction(input: unknown) {
  const result = await runAction("approve", approveSchema.extend(approvalId.shape), input, ({ db, ...principal }, data) =>
    approve(db, principal, data.approvalId, data.code, new Date(), data.contentHash),
  );
  revalidatePath("/dashboard/approvals");
  return result;
}

export async function rejectAction(input: unknown) {
  const result = await runAction("approve", rejectSchema.extend(approvalId.shape), input, ({ db, ...principal }, data) =>
    reject(db, principal, data.approvalId, data.reason),
  );
  revalidatePath("/dashboard/approvals");
  return result;
}

/** The owner sets a token's thresholds (empty: no limit). */
export async function setApprovalPolicyAction(input: unknown) {
  const schema = approvalPolicySchema.extend({ tokenId: z.coerce.number().int().positive() });
  const result = await runAction("payout-targets", schema, input, ({ db, ...principal }, data) =>
    setApprovalPolicy(db, principal, data.tokenId, { perRequest: data.perRequest, perDay: data.perDay }, data.code),
  );
  revalidatePath("/dashboard/approvals");
  return result;
}
