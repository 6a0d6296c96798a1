/**
 * What the public pages read and send, in the OpenAPI document: a refund's claim page (/refund/<refundId>)
 * and a payment link's page (/l/<slug>). No authentication: the claim link (the refund's id and its
 * secret) and the link's slug are what the payer was sent. Schemas checked against lib's views as in member-paths.ts.
 */

import { z } from "zod";
import type { PaymentLinkPage } from "../../domain/payment-links/pay-link";
import { payLinkSchema } from "../../domain/payment-links/schemas";
import { createPaymentResponseSchema } from "../../domain/payments/schemas";
import type { RefundClaimPage } from "../../domain/refunds/claim-refund";
import { claimRefundSchema, claimSecretQuerySchema, refundSchema } from "../../domain/refunds/schemas";
import { EX, paymentSessionExample, refundExample } from "./examples";
import { OPERATION_REASONS } from "./reasons";
import { answer, badId, json, open, refundIdParam, refusals } from "./shared";
import { tagged } from "./tags";

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
    sentAt: z
      .string()
      .nullable()
      .meta({ description: "Once sent (txHash set): when its transaction was confirmed, else when it was recorded; null before." }),
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
  sentAt: null,
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
      ...tagged("Pages (public)"),
      operationId: "getRefundClaim",
      summary: "Get a refund claim",
      description:
        "What a refund's claim page shows (with its claim link's secret k; no other authentication). Answered with Cache-Control: no-store. A claim past its date reads as expired. Give the address with POST /api/refund/{refundId}/claim. A wrong or missing k is answered byte for byte as an unknown refund (404 not-found) and counts against the client address's 10 refund claims a minute; over that, 429 before any secret is checked (a right one too).",
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
      ...tagged("Pages (public)"),
      operationId: "getPaymentLinkPage",
      summary: "Get a payment link's page",
      description:
        "What a payment link's page shows (public). Answered with Cache-Control: no-store. Start a payment with POST /api/links/{slug}/pay.",
      requestParams: {
        path: z.object({ slug: z.string().meta({ description: "The link's slug (its page is /l/<slug>).", example: linkView.slug }) }),
      },
      responses: {
        "200": answer("OK", linkViewSchema, linkView),
        ...refusals(["not-found"], ["NOT_FOUND"], { NOT_FOUND: { message: "payment link not found", reason: "not-found" } }),
      },
    },
  },
  "/api/refund/{refundId}/claim": {
    post: {
      ...open,
      ...tagged("Pages (public)"),
      operationId: "claimRefund",
      summary: "Claim a refund",
      description:
        'The payer\'s address for a refund (the claim page calls it with its link\'s secret k; no other authentication). Needs the claim link\'s secret (k): a wrong or missing one is answered byte for byte as an unknown refund (404 not-found). At most 10 claims a minute per client address, every attempt counted before anything is checked. Above the approval threshold the claim answers 200 with status awaiting_approval: the address waits for a second member of the shop, and nothing is sent before. Every refusal names its problem for the page in details, as {"path": "problem", "message": one of invalid-address, zero-address, service-address, not-claimable, unavailable}. "unavailable" is the merchant\'s side (its wallet short of gas, its daily budget — then 429 with Retry-After —, the network, a removed domain): the message says only to try later or contact the shop; the reason is logged and kept in the refund\'s reason for the merchant, and the refund still waits for a claim. A wallet short of tokens is not a refusal: the claim answers 200 with status awaiting_funds (the payer\'s address kept) and the refund is sent by itself once the wallet can pay.',
      requestParams: { ...refundIdParam, query: claimSecretQuerySchema },
      requestBody: json(claimRefundSchema, { claim: { address: EX.payerAddress } }),
      responses: {
        "200": answer("Sending, awaiting_funds, or awaiting_approval", refundSchema, {
          ...refundExample,
          addressFrom: "payer",
          claimLinkIssued: true,
        }),
        ...refusals(OPERATION_REASONS.claimRefund, ["VALIDATION_ERROR", "NOT_FOUND", "BLOCKCHAIN_ERROR", "RATE_LIMITED"], {
          VALIDATION_ERROR: {
            message: "address must be a 0x-prefixed 20-byte address with a valid checksum",
            reason: "invalid-request",
            details: [{ path: "address", message: "address must be a 0x-prefixed 20-byte address with a valid checksum" }],
          },
          BLOCKCHAIN_ERROR: {
            message: "this refund cannot be sent right now and nothing was sent: try again later, or contact the shop",
            reason: "refund-claim-unavailable",
            details: [{ path: "problem", message: "unavailable" }],
          },
          RATE_LIMITED: { message: "too many refund claims from this address; retry in 40 s", reason: "rate-limited" },
          NOT_FOUND: { message: "refund not found", reason: "not-found" },
        }),
      },
    },
  },
  "/api/links/{slug}/pay": {
    post: {
      ...open,
      ...tagged("Pages (public)"),
      operationId: "payPaymentLink",
      summary: "Pay by payment link",
      description:
        "Starts a payment from a payment link (the link's page calls it; public). At most 10 a minute per client address. An inactive link answers VALIDATION_ERROR and creates nothing.",
      requestParams: {
        path: z.object({ slug: z.string().meta({ description: "The link's slug (its page is /l/<slug>).", example: "coffee-beans-1kg" }) }),
      },
      requestBody: json(payLinkSchema, { pay: { browser: "b7Qm2xK9pL4vN8rT" } }),
      responses: {
        "201": answer("Created", createPaymentResponseSchema, {
          ...paymentSessionExample,
          amount: "18",
          description: "Single origin, roasted this week.",
          orderId: null,
        }),
        ...refusals(OPERATION_REASONS.payLink, ["VALIDATION_ERROR", "NOT_FOUND", "NO_PACKAGE", "RATE_LIMITED"], {
          VALIDATION_ERROR: { message: "this payment link is no longer active", reason: "link-inactive" },
          NOT_FOUND: { message: "payment link not found", reason: "not-found" },
          RATE_LIMITED: { message: "too many payments started from this address; retry in 20 s", reason: "rate-limited" },
        }),
      },
    },
  },
};
