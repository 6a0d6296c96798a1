/** Request and response schemas of /api/v1/payment: they validate requests and generate openapi.json. */

import { z } from "zod";
import { amountStringSchema } from "../../base/money";
import { cursorParamSchema, pageParamSchema, positiveIntSchema } from "../../base/validation";
import { SESSION_STATUSES } from "../../db/schema";
import { addressSchema } from "../../engine/chain/address";
import { paymentRefusal } from "./reasons";

export const MAX_METADATA_BYTES = 4096;
export const MAX_DESCRIPTION_LENGTH = 500;
export const MAX_ORDER_ID_LENGTH = 100;

/**
 * Text a payer or a merchant reads: trimmed, not empty, nothing that garbles or disguises it.
 * Multi-line text (a description) keeps its line breaks, whatever form they came in (CRLF from a
 * browser form or Windows, CR, U+2028/U+2029), as "\n", and may hold tabs. One-line text (an
 * orderId, a link's title) holds no line break of any kind and no tab.
 */
export const displayTextSchema = (field: string, max: number, multiLine: boolean) => {
  const text = z.string({ error: `${field} must be a string` });
  return (multiLine ? text.overwrite((v) => v.replace(/\r\n?|[\u2028\u2029]/g, "\n")) : text)
    .trim()
    .min(1, { error: `${field} must not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .superRefine((value, ctx) => {
      const problem = textProblem(value, multiLine);
      if (problem) ctx.addIssue({ code: "custom", message: `${field} ${problem}` });
    });
};

/** A line break of any kind: LF, CR, NEL (U+0085), the line and paragraph separators. */
const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;
/** C0 controls but tab and LF (judged per field), DEL and C1 controls (U+0080–U+009F): they garble pages, logs and CSV. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
/**
 * Bidirectional embeddings, overrides and isolates: they make text read in another order than
 * it is stored ("Trojan Source"), e.g. an order reference that shows as someone else's. The
 * left-to-right and right-to-left marks (U+200E, U+200F, U+061C) stay allowed: they only set the
 * direction of the characters beside them, which Arabic or Hebrew text needs.
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

function textProblem(text: string, multiLine: boolean): string | null {
  if (!multiLine && LINE_BREAK.test(text)) return "must be one line";
  if (hasControl(text) || (!multiLine && text.includes("\t"))) return "must not contain control characters";
  if (BIDI_CONTROL.test(text)) return "must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069)";
  return null;
}

/** What every create takes besides its price: where the money goes, for which domain, and the shop's own words. */
const sessionFields = {
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
  description: displayTextSchema("description", MAX_DESCRIPTION_LENGTH, true).optional().meta({
    description:
      "Shown to the payer under the amount on the checkout page (≤ 500 characters). Line breaks are kept (CRLF, CR, U+2028 and U+2029 are stored as \\n) and tabs allowed; control characters (C0 other than tab and line feed, DEL, C1) and bidirectional embedding, override and isolate characters (U+202A–U+202E, U+2066–U+2069) are refused.",
    example: "2 × Flat white",
  }),
  orderId: displayTextSchema("orderId", MAX_ORDER_ID_LENGTH, false).optional().meta({
    description:
      "Your order reference (≤ 100 characters, one line): shown on the receipt, returned in status, history and webhooks, searchable on the dashboard. Line breaks, tabs, other control characters and bidirectional embedding, override and isolate characters are refused.",
    example: "ORD-10042",
  }),
  redirectUrl: z
    .string({ error: "redirectUrl must be a string" })
    .max(2000, { error: "redirectUrl is too long" })
    .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), { message: "redirectUrl must be an http(s) URL" })
    .optional()
    .meta({ description: "Where the hosted checkout page sends the payer when the payment completes." }),
};

export const createPaymentSchema = z
  .object({
    tokenId: positiveIntSchema("tokenId").meta({ description: "Id of a token registered by the key's user." }),
    amount: amountStringSchema("amount").meta({ description: 'Decimal amount in whole tokens, e.g. "10.5".', example: "10.5" }),
    ...sessionFields,
  })
  .meta({ id: "CreatePaymentRequest" });

/** A price in a fiat currency (docs/design.md §23), paid in any token the merchant accepts, at a quote locked for QUOTE_TTL_SECONDS. */
export const createFiatPaymentSchema = z
  .object({
    currency: z
      .string({ error: "currency must be a string" })
      .regex(/^[A-Za-z]{3}$/, { error: "currency must be an ISO 4217 code such as USD or EUR" })
      .transform((v) => v.toUpperCase())
      .meta({
        description: "ISO 4217 code of the price: USD, EUR (GBP, CHF, CAD, AUD, JPY where the network has their feed).",
        example: "USD",
      }),
    amount: amountStringSchema("amount").meta({
      description: 'The price, a decimal string with at most the currency\'s minor units, e.g. "25.00".',
      example: "25.00",
    }),
    tokens: z
      .array(positiveIntSchema("tokens[]"), { error: "tokens must be an array of tokenIds" })
      .min(1, { error: "tokens must name at least one tokenId" })
      .max(20, { error: "tokens may name at most 20 tokenIds" })
      .refine((ids) => new Set(ids).size === ids.length, { message: "tokens must not repeat a tokenId" })
      .optional()
      .meta({
        description:
          "The tokenIds the payer may pay with, in the order offered; default: every token you registered that the gateway accepts.",
      }),
    ...sessionFields,
  })
  .meta({ id: "CreateFiatPaymentRequest" });

export type CreateFiatPaymentInput = z.output<typeof createFiatPaymentSchema>;

/** A create names its price once: `tokenId` (a token amount) or `currency` (a fiat price), not both. */
export function assertOnePrice(body: Record<string, unknown>): void {
  if ("tokenId" in body && "currency" in body)
    throw paymentRefusal(
      "VALIDATION_ERROR",
      "token-and-currency",
      "send tokenId (an amount in that token) or currency (a fiat price, with tokens to narrow the choice), not both",
    );
}

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
  cursor: cursorParamSchema(),
});

/** One token's locked quote on a fiat-priced session (docs/design.md §23). */
export const paymentQuoteSchema = z
  .object({
    tokenId: z.number().int(),
    token: z.string().meta({ description: "Token symbol." }),
    amount: z.string().meta({ description: "Exactly what pays the price in this token (rounded up to its base unit)." }),
    rate: z.string().meta({ description: 'The fiat value of one whole token, 8 decimals, e.g. "1.00000000".' }),
    source: z.string().meta({ description: '"chainlink:<feed>", then "/<currency feed>" for a currency other than USD.' }),
    quotedAt: z.string(),
    quoteExpiresAt: z.string().meta({ description: "Transfers until then count at this quote (the session's expiresAt)." }),
    offPeg: z.boolean().meta({ description: "A stablecoin priced at its feed's rate, 0.5–3 % off its peg." }),
  })
  .meta({ id: "PaymentQuote" });

/** The fields a fiat-priced session adds after the seed's (absent on a token-priced session). */
const fiatCreatedFields = {
  currency: z.string().optional().meta({ description: "Fiat-priced sessions only: ISO 4217 code of the price." }),
  fiatAmount: z.string().optional().meta({ description: 'Fiat-priced sessions only: the price, e.g. "25.00".' }),
  quotes: z.array(paymentQuoteSchema).optional().meta({ description: "Fiat-priced sessions only: the tokens offered, in order." }),
};
const fiatPaidFields = {
  ...fiatCreatedFields,
  paidToken: z.string().nullable().optional().meta({ description: "Fiat-priced sessions only: the token that paid it, once completed." }),
  paidAmount: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Fiat-priced sessions only: what arrived, in paidToken, once completed." }),
  rate: z.string().nullable().optional().meta({ description: "Fiat-priced sessions only: paidToken's locked rate, once completed." }),
  rateSource: z
    .string()
    .nullable()
    .optional()
    .meta({ description: 'Fiat-priced sessions only: where that rate came from ("chainlink:<feed>[/<currency feed>]"), once completed.' }),
  ratedAt: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "Fiat-priced sessions only: when that rate was read (ISO 8601), once completed." }),
};

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
    ...fiatCreatedFields,
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
    ...fiatPaidFields,
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
    ...fiatPaidFields,
  })
  .meta({ id: "PaymentHistoryItem" });

export const paginationMetaSchema = z
  .object({
    page: z.number().int().nullable().meta({ description: "The page asked for; null when paging by cursor." }),
    limit: z.number().int(),
    total: z.number().int().meta({ description: "Rows matching the filters (kept as counters: never a count over the history)." }),
    pages: z.number().int(),
    nextCursor: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Only when paging by cursor: the `cursor` of the next page, null on the last one." }),
  })
  .meta({ id: "PaginationMeta" });

/** `data` of a history: its items, the meta and, when paging by cursor, `nextCursor` (as in meta). */
export const historyPageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    nextCursor: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Only when paging by cursor: the `cursor` of the next page, null on the last one." }),
    meta: paginationMetaSchema,
  });

export const cancelResponseSchema = z.object({ message: z.string(), status: statusSchema }).meta({ id: "CancelResult" });
