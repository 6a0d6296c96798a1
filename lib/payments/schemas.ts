/** Request and response schemas of /api/v1/payment: they validate requests and generate openapi.json. */

import { z } from "zod";
import { addressSchema } from "../chain/address";
import { SESSION_STATUSES } from "../db/schema";
import { pageParamSchema, positiveIntSchema } from "../validation";
import { amountStringSchema } from "./amount";

export const MAX_METADATA_BYTES = 4096;
export const MAX_DESCRIPTION_LENGTH = 500;
export const MAX_ORDER_ID_LENGTH = 100;

/**
 * Text a payer or a merchant reads: trimmed, not empty, no control characters (a line break in a
 * description is allowed; a NUL or an escape sequence is not).
 */
export const displayTextSchema = (field: string, max: number, allowNewlines: boolean) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, { error: `${field} must not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .refine((v) => !hasControlCharacter(v, allowNewlines), { message: `${field} must not contain control characters` });

/** C0 controls and DEL (a line feed allowed when `allowNewlines`): they garble pages, logs and CSV. */
function hasControlCharacter(text: string, allowNewlines: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 || code === 0x7f) && !(allowNewlines && code === 0x0a)) return true;
  }
  return false;
}

export const createPaymentSchema = z
  .object({
    tokenId: positiveIntSchema("tokenId").meta({ description: "Id of a token registered by the key's user." }),
    amount: amountStringSchema("amount").meta({ description: 'Decimal amount in whole tokens, e.g. "10.5".', example: "10.5" }),
    merchantWallet: addressSchema("merchantWallet")
      .optional()
      .meta({ description: "Receives the forwarded tokens; default: the domain's payout address, else its withdrawal wallet." }),
    domainId: positiveIntSchema("domainId")
      .optional()
      .meta({ description: "Whitelisted domain; default: the domain of the Origin header, else the user's first domain." }),
    metadata: z
      .record(z.string(), z.unknown(), { error: "metadata must be a JSON object" })
      .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= MAX_METADATA_BYTES, {
        message: `metadata must be at most ${MAX_METADATA_BYTES} bytes as JSON`,
      })
      .optional()
      .meta({ description: "Your own data (≤ 4 KB), returned in history." }),
    description: displayTextSchema("description", MAX_DESCRIPTION_LENGTH, true)
      .optional()
      .meta({ description: "Shown to the payer under the amount on the checkout page (≤ 500 characters).", example: "2 × Flat white" }),
    orderId: displayTextSchema("orderId", MAX_ORDER_ID_LENGTH, false).optional().meta({
      description:
        "Your order reference (≤ 100 characters): shown on the receipt, returned in status, history and webhooks, searchable on the dashboard.",
      example: "ORD-10042",
    }),
    redirectUrl: z
      .string({ error: "redirectUrl must be a string" })
      .max(2000, { error: "redirectUrl is too long" })
      .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), { message: "redirectUrl must be an http(s) URL" })
      .optional()
      .meta({ description: "Where the hosted checkout page sends the payer when the payment completes." }),
  })
  .meta({ id: "CreatePaymentRequest" });

export type CreatePaymentInput = z.output<typeof createPaymentSchema>;

const statusSchema = z.enum(SESSION_STATUSES);

export const paymentHistoryQuerySchema = z.object({
  page: pageParamSchema("page", 1).meta({ description: "Page number, from 1." }),
  limit: pageParamSchema("limit", 20, 100).meta({ description: "Items per page, 1–100 (default 20)." }),
  status: z.enum(SESSION_STATUSES, { error: `status must be one of ${SESSION_STATUSES.join(", ")}` }).optional(),
  orderId: z
    .string()
    .max(MAX_ORDER_ID_LENGTH, { error: `orderId must be at most ${MAX_ORDER_ID_LENGTH} characters` })
    .optional()
    .meta({ description: "Only the sessions created with this orderId (exact match)." }),
});

export const createPaymentResponseSchema = z
  .object({
    sessionId: z.string().meta({ description: "UUID; also in the checkout URL." }),
    depositAddress: z.string().meta({ description: "Fresh BSC address for this payment only." }),
    ephemeralAddress: z.string().meta({ description: "Same value as depositAddress." }),
    qrCode: z.string().meta({ description: "data:image/png;base64 QR of the EIP-681 transfer URI." }),
    amount: z.string(),
    token: z.string().meta({ description: "Token symbol." }),
    expiresAt: z.string().meta({ description: "ISO 8601 UTC." }),
    status: z.literal("pending"),
    checkoutUrl: z.string().meta({ description: "Hosted payment page for the payer." }),
    description: z.string().nullable(),
    orderId: z.string().nullable(),
  })
  .meta({ id: "PaymentSession" });

export const paymentStatusSchema = z
  .object({
    sessionId: z.string(),
    status: statusSchema,
    amount: z.string(),
    receivedAmount: z.string().nullable(),
    txHash: z.string().nullable(),
    expiresAt: z.string(),
    token: z.string(),
    overpaid: z.boolean().meta({ description: "More than the amount arrived in time." }),
    late: z.boolean().meta({ description: "Transfers arrived after expiry or cancellation (forwarded, not counted)." }),
    lateAmount: z.string().nullable(),
    description: z.string().nullable(),
    orderId: z.string().nullable(),
  })
  .meta({ id: "PaymentStatus" });

export const paymentHistoryItemSchema = z
  .object({
    sessionId: z.string(),
    depositAddress: z.string(),
    ephemeralAddress: z.string(),
    amount: z.string(),
    token: z.string(),
    status: statusSchema,
    receivedAmount: z.string().nullable(),
    txHash: z.string().nullable(),
    overpaid: z.boolean(),
    late: z.boolean(),
    lateAmount: z.string().nullable(),
    expiresAt: z.string(),
    createdAt: z.string(),
    checkoutUrl: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    description: z.string().nullable(),
    orderId: z.string().nullable(),
  })
  .meta({ id: "PaymentHistoryItem" });

export const paginationMetaSchema = z
  .object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() })
  .meta({ id: "PaginationMeta" });

export const cancelResponseSchema = z.object({ message: z.string(), status: statusSchema }).meta({ id: "CancelResult" });
