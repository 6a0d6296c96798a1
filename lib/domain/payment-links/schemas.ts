/** Request and response schemas of payment links (/api/user/payment-links and the public pay call). */

import { z } from "zod";
import { amountStringSchema } from "../../base/money";
import { positiveIntSchema } from "../../base/validation";
import { displayTextSchema } from "../payments/schemas";

const redirectUrlSchema = z
  .string({ error: "redirectUrl must be a string" })
  .max(2000, { error: "redirectUrl is too long" })
  .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), { message: "redirectUrl must be an http(s) URL" });

const linkFields = {
  title: displayTextSchema("title", 100, false).meta({ description: 'Shown as the page\'s heading, e.g. "Coffee beans, 1 kg".' }),
  description: displayTextSchema("description", 500, true).nullable().optional(),
  tokenId: positiveIntSchema("tokenId"),
  amount: amountStringSchema("amount")
    .nullable()
    .optional()
    .meta({ description: "A fixed amount (in `currency` when given, else in the token); leave out to let the payer choose." }),
  currency: z
    .string({ error: "currency must be a string" })
    .regex(/^[A-Za-z]{3}$/, { error: "currency must be an ISO 4217 code such as USD or EUR" })
    .transform((v) => v.toUpperCase())
    .nullable()
    .optional()
    .meta({
      description:
        "A fixed price in this currency (ISO 4217, as a fiat payment's), with `amount` such as \"25.00\": each Pay quotes the link's token at the price feeds' rate then (docs/fiat.md). null: priced in the token.",
      example: "USD",
    }),
  minAmount: amountStringSchema("minAmount")
    .nullable()
    .optional()
    .meta({ description: "With no fixed amount: the least the payer may choose." }),
  domainId: positiveIntSchema("domainId").optional().meta({ description: "Whose wallet receives; default: the first domain." }),
  redirectUrl: redirectUrlSchema.nullable().optional(),
  active: z.boolean({ error: "active must be true or false" }).optional(),
  code: z
    .string({ error: "code must be a string" })
    .trim()
    .max(32, { error: "code is too long" })
    .optional()
    .meta({ description: "A current two-factor code: needed, with two-factor on, to give domainId (whose payout address receives)." }),
};

export const createLinkSchema = z.object(linkFields).meta({ id: "CreatePaymentLinkRequest" });
export type CreateLinkInput = z.output<typeof createLinkSchema>;

export const updateLinkSchema = z
  .object({ ...linkFields, title: linkFields.title.optional(), tokenId: linkFields.tokenId.optional() })
  .meta({ id: "UpdatePaymentLinkRequest" });
export type UpdateLinkInput = z.output<typeof updateLinkSchema>;

export const payLinkSchema = z
  .object({
    amount: amountStringSchema("amount").optional().meta({ description: "The payer's amount, for a link without a fixed one." }),
    browser: z
      .string({ error: "browser must be a string" })
      .regex(/^[A-Za-z0-9_-]{16,64}$/, { error: "browser must be 16 to 64 letters, digits, - or _" })
      .optional()
      .meta({
        description:
          "A random id the link page keeps per browser: a repeated Pay returns the open session only to the same address and the same browser (two payers behind one NAT get their own sessions).",
      }),
  })
  .meta({ id: "PayLinkRequest" });

export const paymentLinkSchema = z
  .object({
    linkId: z.number().int(),
    url: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    token: z.string(),
    tokenId: z.number().int(),
    network: z.string(),
    amount: z.string().nullable().meta({ description: "The fixed price: in `currency` when present, else in the token." }),
    minAmount: z.string().nullable(),
    currency: z.string().optional().meta({ description: "Priced in a currency only (ISO 4217): `amount` is in it." }),
    domainId: z.number().int(),
    redirectUrl: z.string().nullable(),
    active: z.boolean(),
    createdAt: z.string(),
    stats: z.object({ payments: z.number().int(), received: z.string(), lastPaymentAt: z.string().nullable() }),
  })
  .meta({ id: "PaymentLink" });
