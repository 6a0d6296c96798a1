/** Refunds and payment links in the OpenAPI document (issue 25). */

import { z } from "zod";
import { createLinkSchema, payLinkSchema, paymentLinkSchema, updateLinkSchema } from "../../domain/payment-links/schemas";
import { createPaymentResponseSchema } from "../../domain/payments/schemas";
import { claimRefundSchema, createRefundSchema, refundSchema } from "../../domain/refunds/schemas";
import { OPERATION_REASONS } from "./reasons";
import { envelope, errors, idempotencyHeader, json, refusals, sessionIdParam, user, V1_ERRORS, v1Scope } from "./shared";

export const refundAndLinkPaths = {
  "/api/v1/payment/{sessionId}/refund": {
    post: {
      ...v1Scope("refunds"),
      summary: "Refund a payment (to an address you give, or as a claim the payer completes)",
      description:
        "Without toAddress the refund waits (awaiting_address) for the payer to give an address at claimUrl — send that link to the payer; it expires after REFUND_CLAIM_TTL_SECONDS (30 days). With toAddress it is sent at once. Either way the money leaves the payment's domain withdrawal wallet as a withdrawal (the same gas caps, budgets and nonce safety). A payment is never refunded beyond what it received: its counted transfers (receivedAmount, which may exceed amount when overpaid) plus its late transfers, minus its other refunds that are awaiting_address, awaiting_funds, sending or completed. Without amount a completed payment refunds only its overpaid part and late transfers (less its refunds so far); when nothing of that is left it answers VALIDATION_ERROR on amount and records nothing (the price needs an explicit amount); an expired or cancelled payment refunds everything not yet refunded. The default is decided under the payment's lock: if another refund changed it meanwhile, this one answers VALIDATION_ERROR and records nothing. With toAddress, when the withdrawal wallet does not hold the tokens yet (the payment's forward has not reached it, or the payment was forwarded to another address), the refund is still created (201) with status awaiting_funds and a reason saying why: it is sent by itself as soon as the wallet can pay (checked about every 30 s), or cancelled with POST /refund/{refundId}/cancel. A pending payment cannot be refunded. An Idempotency-Key replay answers the first refund (201) even once it used up the payment. Webhooks: refund.created (with withdrawalId and txHash when sent at once, null for a claim until claimed and for awaiting_funds), refund.completed, refund.failed; the refund's withdrawal also sends withdrawal.completed / withdrawal.failed, with its refundId.",
      requestParams: { ...sessionIdParam, ...idempotencyHeader },
      requestBody: json(createRefundSchema),
      responses: {
        "201": { description: "Created", ...json(envelope(refundSchema)) },
        ...refusals(
          OPERATION_REASONS.createRefund,
          "VALIDATION_ERROR",
          "NOT_FOUND",
          "BLOCKCHAIN_ERROR",
          "IDEMPOTENCY_CONFLICT",
          ...V1_ERRORS,
        ),
      },
    },
  },
  "/api/v1/payment/{sessionId}/refunds": {
    get: {
      ...v1Scope("refunds"),
      summary: "A payment's refunds, oldest first",
      requestParams: sessionIdParam,
      responses: {
        "200": { description: "OK", ...json(envelope(z.object({ items: z.array(refundSchema) }))) },
        ...refusals(OPERATION_REASONS.read, "VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS),
      },
    },
  },
  "/api/v1/refund/{refundId}": {
    get: {
      ...v1Scope("refunds"),
      summary: "One refund (another key's is NOT_FOUND)",
      requestParams: { path: z.object({ refundId: z.string().meta({ description: "UUID of the refund." }) }) },
      responses: {
        "200": { description: "OK", ...json(envelope(refundSchema)) },
        ...refusals(OPERATION_REASONS.read, "VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS),
      },
    },
  },
  "/api/v1/refund/{refundId}/cancel": {
    post: {
      ...v1Scope("refunds"),
      summary: "Cancel a refund the payer has not claimed yet, or one awaiting funds",
      description:
        "awaiting_address or awaiting_funds → cancelled: nothing is sent. A refund being sent or over (sending, completed, failed) answers VALIDATION_ERROR; cancelling twice changes nothing.",
      requestParams: { path: z.object({ refundId: z.string() }) },
      responses: {
        "200": { description: "OK", ...json(envelope(refundSchema)) },
        ...refusals(OPERATION_REASONS.cancelRefund, "VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS),
      },
    },
  },
  "/api/refund/{refundId}/claim": {
    post: {
      summary: "The payer's address for a refund (the claim page calls it; no authentication: the refund id is the secret)",
      description:
        'At most 10 claims a minute per client address. Every refusal names its problem for the page in details, as {"path": "problem", "message": one of invalid-address, zero-address, service-address, not-claimable, unavailable}. "unavailable" is the merchant\'s side (its wallet short of gas, its daily budget — then 429 with Retry-After —, the network, a removed domain): the message says only to try later or contact the shop; the reason is logged and kept in the refund\'s reason for the merchant, and the refund still waits for a claim. A wallet short of tokens is not a refusal: the claim answers 200 with status awaiting_funds (the payer\'s address kept) and the refund is sent by itself once the wallet can pay.',
      requestParams: { path: z.object({ refundId: z.string() }) },
      requestBody: json(claimRefundSchema),
      responses: {
        "200": { description: "Sending, or awaiting_funds", ...json(envelope(refundSchema)) },
        ...refusals(OPERATION_REASONS.claimRefund, "VALIDATION_ERROR", "NOT_FOUND", "BLOCKCHAIN_ERROR", "RATE_LIMITED"),
      },
    },
  },
  "/api/user/payment-links": {
    get: {
      ...user,
      summary: "Your payment links, newest first, with their figures (completed payments, amount received, last payment)",
      responses: {
        "200": { description: "OK", ...json(envelope(z.object({ items: z.array(paymentLinkSchema) }))) },
        ...errors("UNAUTHORIZED"),
      },
    },
    post: {
      ...user,
      summary: "Create a payment link: a page at /l/<slug> where each Pay starts a fresh session",
      description: "Give either amount (a fixed price) or minAmount (the payer chooses at least that).",
      requestBody: json(createLinkSchema),
      responses: {
        "201": { description: "Created", ...json(envelope(paymentLinkSchema)) },
        ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND", "DOMAIN_NOT_WHITELISTED"),
      },
    },
  },
  "/api/user/payment-links/{id}": {
    get: {
      ...user,
      summary: "One payment link",
      requestParams: { path: z.object({ id: z.string() }) },
      responses: { "200": { description: "OK", ...json(envelope(paymentLinkSchema)) }, ...errors("UNAUTHORIZED", "NOT_FOUND") },
    },
    patch: {
      ...user,
      summary: "Change a payment link (any field; active: false deactivates, true turns it on again)",
      requestParams: { path: z.object({ id: z.string() }) },
      requestBody: json(updateLinkSchema),
      responses: {
        "200": { description: "OK", ...json(envelope(paymentLinkSchema)) },
        ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"),
      },
    },
    delete: {
      ...user,
      summary: "Deactivate a payment link (it is kept: its payments refer to it)",
      requestParams: { path: z.object({ id: z.string() }) },
      responses: { "200": { description: "OK", ...json(envelope(paymentLinkSchema)) }, ...errors("UNAUTHORIZED", "NOT_FOUND") },
    },
  },
  "/api/links/{slug}/pay": {
    post: {
      summary: "Start a payment from a payment link (the link's page calls it; public)",
      description: "At most 10 a minute per client address. An inactive link answers VALIDATION_ERROR and creates nothing.",
      requestParams: { path: z.object({ slug: z.string() }) },
      requestBody: json(payLinkSchema),
      responses: {
        "201": { description: "Created", ...json(envelope(createPaymentResponseSchema)) },
        ...refusals(OPERATION_REASONS.payLink, "VALIDATION_ERROR", "NOT_FOUND", "NO_PACKAGE", "RATE_LIMITED"),
      },
    },
  },
};
