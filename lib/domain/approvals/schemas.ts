/** The request bodies and queries of /api/user/approvals and /api/user/approval-policies. */

import { z } from "zod";
import { amountStringSchema } from "../../base/money";
import { cursorParamSchema } from "../../base/validation";
import { APPROVAL_STATUSES } from "../../db/schema";

const codeSchema = z.string({ error: "code must be a string" }).trim().max(32, { error: "code is too long" }).optional();

export const approvalsQuerySchema = z.object({
  status: z.enum(APPROVAL_STATUSES, { error: `status must be one of ${APPROVAL_STATUSES.join(", ")}` }).optional(),
  cursor: cursorParamSchema(),
});

export const approveSchema = z.object({
  code: codeSchema,
  /** The `contentHash` of the approval as the approver saw it: the code approves exactly that content. */
  contentHash: z
    .string({ error: "contentHash must be a string" })
    .regex(/^[0-9a-f]{64}$/, { error: "contentHash must be the approval's contentHash (64 hex characters)" })
    .optional(),
});

export const rejectSchema = z.object({
  reason: z.string({ error: "reason must be a string" }).trim().max(500, { error: "reason is at most 500 characters" }).optional(),
});

export const approvalPolicySchema = z.object({
  /** In the token's units; null: no limit. */
  perRequest: amountStringSchema("perRequest").nullable(),
  perDay: amountStringSchema("perDay").nullable(),
  code: codeSchema,
});
