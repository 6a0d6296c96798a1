/**
 * What the public pages read, in the OpenAPI document: a refund's claim page (/refund/<refundId>)
 * and a payment link's page (/l/<slug>). No authentication: the claim link (the refund's id and its
 * secret) and the link's slug are what the payer was sent. Schemas checked against lib's views as in member-paths.ts.
 */

import { z } from "zod";
import type { PaymentLinkPage } from "../../domain/payment-links/pay-link";
import type { RefundClaimPage } from "../../domain/refunds/claim-refund";
import { claimSecretQuerySchema, refundSchema } from "../../domain/refunds/schemas";
import { EX, refundExample } from "./examples";
import { answer, badId, open, refundIdParam, refusals } from "./shared";

const claimViewSchema = refundSchema
  .pick({
    refundId: true,
    status: true,
    amount: true,
    token: true,
    network: true,
    toAddress: true,
    claimExpiresAt: true,
    txHash: true,
    currency: true,
    fiatAmount: true,
    rate: true,
  })
  .extend({
    reason: z.string().nullable().meta({ description: "Why it was cancelled or failed; null otherwise." }),
    description: z.string().nullable().meta({ description: "The payment's description." }),
    orderId: z.string().nullable(),
    senderHint: z
      .string()
      .nullable()
      .meta({ description: "The address the payment came from: a hint the page may offer, never used without the payer's claim." }),
    merchant: z.string().nullable().meta({ description: "The shop's host name." }),
  })
  .meta({ id: "RefundClaimView" }) satisfies z.ZodType<RefundClaimPage>;

const linkViewSchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    token: z.string(),
    network: z.string(),
    amount: z
      .string()
      .nullable()
      .meta({ description: "The fixed price (in `currency` when present, else in the token); null when the payer chooses the amount." }),
    minAmount: z
      .string()
      .nullable()
      .meta({ description: "When the payer chooses: the least they may pay (the link's minimum or the token's, the higher)." }),
    merchant: z.string().nullable().meta({ description: "The shop's host name." }),
    active: z.boolean().meta({ description: "false: Pay is refused (link-inactive)." }),
    currency: z
      .string()
      .optional()
      .meta({ description: "Priced in a currency only (ISO 4217): `amount` is in it, paid in `token` at the rate when Pay is pressed." }),
  })
  .meta({ id: "PaymentLinkView" }) satisfies z.ZodType<PaymentLinkPage>;

const claimView = {
  refundId: EX.refundId,
  status: "awaiting_address",
  amount: refundExample.amount,
  token: refundExample.token,
  network: refundExample.network,
  toAddress: null,
  claimExpiresAt: refundExample.claimExpiresAt,
  txHash: null,
  reason: null,
  description: "2 × Flat white",
  orderId: "ORD-10042",
  senderHint: EX.payerAddress,
  merchant: "shop.example.com",
} satisfies RefundClaimPage;

const linkView = {
  slug: "coffee-beans-1kg",
  title: "Coffee beans, 1 kg",
  description: "Single origin, roasted this week.",
  token: "USDT",
  network: "bsc",
  amount: "18",
  minAmount: null,
  merchant: "shop.example.com",
  active: true,
} satisfies PaymentLinkPage;

export const pagePaths = {
  "/api/refund/{refundId}": {
    get: {
      ...open,
      operationId: "getRefundClaim",
      summary: "What a refund's claim page shows (with its claim link's secret k; no other authentication)",
      description:
        "Answered with Cache-Control: no-store. A claim past its date reads as expired. Give the address with POST /api/refund/{refundId}/claim. A wrong or missing k is answered byte for byte as an unknown refund (404 not-found) and counts against the client address's 10 refund claims a minute; over that, 429 before any secret is checked (a right one too).",
      requestParams: { ...refundIdParam, query: claimSecretQuerySchema },
      responses: {
        "200": answer("OK", claimViewSchema, claimView),
        ...refusals(["invalid-request", "not-found", "rate-limited"], ["VALIDATION_ERROR", "NOT_FOUND", "RATE_LIMITED"], {
          ...badId("refundId"),
          NOT_FOUND: { message: "refund not found", reason: "not-found" },
          RATE_LIMITED: { message: "too many refund claims from this address; retry in 40 s", reason: "rate-limited" },
        }),
      },
    },
  },
  "/api/links/{slug}": {
    get: {
      ...open,
      operationId: "getPaymentLinkPage",
      summary: "What a payment link's page shows (public)",
      description: "Answered with Cache-Control: no-store. Start a payment with POST /api/links/{slug}/pay.",
      requestParams: {
        path: z.object({ slug: z.string().meta({ description: "The link's slug (its page is /l/<slug>).", example: linkView.slug }) }),
      },
      responses: {
        "200": answer("OK", linkViewSchema, linkView),
        ...refusals(["not-found"], ["NOT_FOUND"], { NOT_FOUND: { message: "payment link not found", reason: "not-found" } }),
      },
    },
  },
};
