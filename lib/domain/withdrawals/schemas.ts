import { z } from "zod";
import { amountStringSchema } from "../../base/money";
import { cursorParamSchema, pageParamSchema, positiveIntSchema } from "../../base/validation";
import { WITHDRAWAL_STATUSES } from "../../db/schema";
import { addressSchema } from "../../engine/chain/address";

export const sendWithdrawalSchema = z
  .object({
    domainId: positiveIntSchema("domainId").meta({ description: "Domain whose withdrawal wallet pays." }),
    tokenId: positiveIntSchema("tokenId"),
    toAddress: addressSchema("toAddress").meta({ description: "Recipient BSC address." }),
    amount: amountStringSchema("amount").meta({ example: "25" }),
  })
  .meta({ id: "SendWithdrawalRequest" });

export type SendWithdrawalInput = z.output<typeof sendWithdrawalSchema>;

export const withdrawalHistoryQuerySchema = z.object({
  page: pageParamSchema("page", 1),
  limit: pageParamSchema("limit", 20, 100),
  status: z.enum(WITHDRAWAL_STATUSES, { error: `status must be one of ${WITHDRAWAL_STATUSES.join(", ")}` }).optional(),
  cursor: cursorParamSchema(),
});

export const withdrawalSchema = z
  .object({
    withdrawalId: z.string(),
    txHash: z.string().nullable().meta({ description: "Null while the withdrawal awaits approval, or once rejected: nothing was signed." }),
    amount: z.string(),
    token: z.string(),
    toAddress: z.string(),
    status: z.enum(WITHDRAWAL_STATUSES),
    domainId: z.number().int(),
    fromAddress: z.string(),
    createdAt: z.string(),
    confirmedAt: z.string().nullable(),
    failureReason: z.string().nullable(),
    refundId: z.string().nullable().meta({
      description:
        "The refund this withdrawal pays out (see POST /payment/{sessionId}/refund); null for a withdrawal you sent. Its refund.completed / refund.failed webhook comes with this withdrawal's withdrawal.completed / withdrawal.failed: book the money once.",
    }),
  })
  .meta({ id: "Withdrawal" });
