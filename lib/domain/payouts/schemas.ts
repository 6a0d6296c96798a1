import { z } from "zod";
import { amountStringSchema } from "../../base/money";
import { isUuid, pageParamSchema, positiveIntSchema } from "../../base/validation";
import { PAYOUT_BATCH_STATUSES, PAYOUT_ITEM_STATUSES } from "../../db/schema";
import { addressSchema } from "../../engine/chain/address";
import { MAX_PAYOUT_ITEMS } from "../../engine/chain/batch-payer";

export const payoutItemSchema = z.object({
  toAddress: addressSchema("toAddress").meta({ description: "Recipient BSC address." }),
  amount: amountStringSchema("amount").meta({ example: "25" }),
  reference: z
    .string({ error: "reference must be a string" })
    .max(200, { error: "reference must be at most 200 characters" })
    .optional()
    .meta({ description: "Your own reference for this item (an invoice, a payee id), up to 200 characters." }),
});

export const createPayoutsSchema = z
  .object({
    domainId: positiveIntSchema("domainId").meta({ description: "Domain whose withdrawal wallet pays." }),
    tokenId: positiveIntSchema("tokenId").meta({ description: "The one token every item is paid in." }),
    items: z
      .array(payoutItemSchema, { error: "items must be an array" })
      .min(1, { error: "items must name at least one recipient" })
      .max(MAX_PAYOUT_ITEMS, { error: `items may hold at most ${MAX_PAYOUT_ITEMS} recipients` }),
  })
  .meta({ id: "CreatePayoutsRequest" });

export type CreatePayoutsInput = z.output<typeof createPayoutsSchema>;

/**
 * What POST /api/v1/payouts parses before the batch is checked: the batch's own fields, and items
 * as an array of anything (each item is checked by checkPayoutBatch, shape and meaning together, so
 * a refusal names every bad item at once). The document shows createPayoutsSchema.
 */
export const payoutRequestSchema = createPayoutsSchema.extend({
  items: z
    .array(z.unknown(), { error: "items must be an array" })
    .min(1, { error: "items must name at least one recipient" })
    .max(MAX_PAYOUT_ITEMS, { error: `items may hold at most ${MAX_PAYOUT_ITEMS} recipients` }),
});

/** A payout request whose items are still to be checked (the API's, or the dashboard's reviewed CSV rows). */
export type PayoutRequestInput = Omit<CreatePayoutsInput, "items"> & { items: readonly unknown[] };

export const payoutItemViewSchema = z
  .object({
    index: z.number().int(),
    toAddress: z.string(),
    amount: z.string(),
    reference: z.string().nullable(),
    status: z.enum(PAYOUT_ITEM_STATUSES),
    txHash: z.string().nullable(),
    failureReason: z.string().nullable(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: "PayoutItem" });

export const payoutBatchViewSchema = z
  .object({
    batchId: z.string(),
    status: z.enum(PAYOUT_BATCH_STATUSES),
    domainId: z.number().int(),
    tokenId: z.number().int(),
    token: z.string(),
    network: z.string(),
    fromAddress: z.string(),
    total: z.string(),
    itemCount: z.number().int(),
    counts: z.object({ pending: z.number(), sending: z.number(), completed: z.number(), failed: z.number() }),
    reason: z.string().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    items: z.array(payoutItemViewSchema),
  })
  .meta({ id: "PayoutBatch" });

export const payoutListQuerySchema = z.object({
  limit: pageParamSchema("limit", 20, 100),
  cursor: z
    .string()
    .refine(isUuid, { error: "cursor is not one this service handed out" })
    .optional()
    .meta({ description: "The `nextCursor` of the page before; empty for the newest." }),
});
