/** Refunds and payment links in the OpenAPI document (what the payer's pages call: page-paths.ts). */

import { z } from "zod";
import { createLinkSchema, paymentLinkSchema, updateLinkSchema } from "../../domain/payment-links/schemas";
import { createRefundSchema, refundSchema } from "../../domain/refunds/schemas";
import { claimRefundExample, EX, refundExample } from "./examples";
import { OPERATION_REASONS } from "./reasons";
import {
  answer,
  badId,
  idempotencyHeader,
  idParam,
  json,
  member,
  memberErrors,
  refundIdParam,
  refusals,
  sessionIdParam,
  V1_ERRORS,
  v1Scope,
} from "./shared";
import { tagged } from "./tags";

const refundNotFound = { NOT_FOUND: { message: "refund not found", reason: "not-found" as const } };
const linkNotFound = { NOT_FOUND: { message: "payment link not found", reason: "not-found" as const } };

const linkExample = {
  linkId: 12,
  url: `${EX.site}/l/coffee-beans-1kg`,
  slug: "coffee-beans-1kg",
  title: "Coffee beans, 1 kg",
  description: "Single origin, roasted this week.",
  token: "USDT",
  tokenId: 1,
  network: "bsc",
  amount: "18",
  minAmount: null,
  domainId: 3,
  redirectUrl: `${EX.shop}/thanks`,
  active: true,
  createdAt: EX.createdAt,
  stats: { payments: 4, received: "72", lastPaymentAt: EX.paidAt },
};

export const refundAndLinkPaths = {
  "/api/v1/payment/{sessionId}/refund": {
    post: {
      ...v1Scope("refunds"),
      ...tagged("Refunds"),
      operationId: "createRefund",
      summary: "Refund a payment",
      description:
        "To an address you give, or as a claim the payer completes. Without toAddress the refund waits (awaiting_address) for the payer to give an address at claimUrl — send that link to the payer; it expires after REFUND_CLAIM_TTL_SECONDS (30 days). The link carries a secret (256 bits, stored only hashed) and is in this answer only: reads, lists and webhooks have claimUrl null, and an Idempotency-Key replay answers the refund without it (the secret is kept nowhere) — issue a new one with POST /api/v1/refund/{refundId}/claim-link, which voids the old one. With toAddress it is sent at once. Above the account's approval threshold a second member approves the refund with its destination: with toAddress it waits awaiting_approval at once; without, its claim link works as usual and the payer's address goes awaiting_approval before anything is signed, then out to exactly that address once approved. Either way the money leaves the payment's domain withdrawal wallet as a withdrawal (the same gas caps, budgets and nonce safety). A payment is never refunded beyond what it received: its counted transfers (receivedAmount, which may exceed amount when overpaid) plus its late transfers, minus its other refunds that are awaiting_address, awaiting_funds, sending or completed. Without amount a completed payment refunds only its overpaid part and late transfers (less its refunds so far); when nothing of that is left it answers VALIDATION_ERROR on amount and records nothing (the price needs an explicit amount); an expired or cancelled payment refunds everything not yet refunded. The default is decided under the payment's lock: if another refund changed it meanwhile, this one answers VALIDATION_ERROR and records nothing. With toAddress, when the withdrawal wallet does not hold the tokens yet (the payment's forward has not reached it, or the payment was forwarded to another address), the refund is still created (201) with status awaiting_funds and a reason saying why: it is sent by itself as soon as the wallet can pay (checked about every 30 s), or cancelled with POST /refund/{refundId}/cancel. A pending payment cannot be refunded. An Idempotency-Key replay answers the first refund (201) even once it used up the payment. Webhooks: refund.created (with withdrawalId and txHash when sent at once, null for a claim until claimed and for awaiting_funds), refund.completed, refund.failed; the refund's withdrawal also sends withdrawal.completed / withdrawal.failed, with its refundId.",
      requestParams: { ...sessionIdParam, ...idempotencyHeader },
      requestBody: json(createRefundSchema, {
        toAddress: { amount: "2.5", toAddress: EX.payerAddress },
        claim: { amount: "2.5" },
      }),
      responses: {
        "201": answer("Created (a claim: with its claimUrl, this once)", refundSchema, claimRefundExample),
        ...refusals(
          OPERATION_REASONS.createRefund,
          ["VALIDATION_ERROR", "NOT_FOUND", "BLOCKCHAIN_ERROR", "IDEMPOTENCY_CONFLICT", ...V1_ERRORS],
          {
            VALIDATION_ERROR: {
              message: "amount 12 is more than this payment can still refund (10.5)",
              reason: "refund-exceeds-refundable",
            },
            NOT_FOUND: { message: "payment session not found", reason: "not-found" },
          },
        ),
      },
    },
  },
  "/api/v1/payment/{sessionId}/refunds": {
    get: {
      ...v1Scope("refunds"),
      ...tagged("Refunds"),
      operationId: "listPaymentRefunds",
      summary: "List a payment's refunds",
      description: "A payment's refunds, oldest first.",
      requestParams: sessionIdParam,
      responses: {
        "200": answer("OK", z.object({ items: z.array(refundSchema) }), {
          items: [{ ...refundExample, status: "completed", completedAt: EX.later }],
        }),
        ...refusals(OPERATION_REASONS.read, ["VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS], {
          ...badId("sessionId"),
          NOT_FOUND: { message: "payment session not found", reason: "not-found" },
        }),
      },
    },
  },
  "/api/v1/refund/{refundId}": {
    get: {
      ...v1Scope("refunds"),
      ...tagged("Refunds"),
      operationId: "getRefund",
      summary: "Get a refund",
      description: "One refund of the API key (another key's is NOT_FOUND).",
      requestParams: refundIdParam,
      responses: {
        "200": answer("OK", refundSchema, refundExample),
        ...refusals(OPERATION_REASONS.read, ["VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS], { ...badId("refundId"), ...refundNotFound }),
      },
    },
  },
  "/api/v1/refund/{refundId}/cancel": {
    post: {
      ...v1Scope("refunds"),
      ...tagged("Refunds"),
      operationId: "cancelRefund",
      summary: "Cancel a refund",
      description:
        "Cancels a refund the payer has not claimed yet, or one awaiting funds. awaiting_address or awaiting_funds → cancelled: nothing is sent. A refund being sent or over (sending, completed, failed) answers VALIDATION_ERROR; cancelling twice changes nothing.",
      requestParams: refundIdParam,
      responses: {
        "200": answer("OK", refundSchema, {
          ...refundExample,
          status: "cancelled",
          toAddress: null,
          addressFrom: null,
          withdrawalId: null,
          txHash: null,
          reason: "cancelled by the merchant",
          completedAt: EX.later,
        }),
        ...refusals(OPERATION_REASONS.cancelRefund, ["VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS], {
          VALIDATION_ERROR: {
            message: "this refund is sending; only a refund awaiting an address or funds can be cancelled",
            reason: "refund-not-cancellable",
          },
          ...refundNotFound,
        }),
      },
    },
  },
  "/api/v1/refund/{refundId}/claim-link": {
    post: {
      ...v1Scope("refunds"),
      ...tagged("Refunds"),
      operationId: "issueClaimLink",
      summary: "Issue a new claim link",
      description:
        "A new claim link for a refund waiting for the payer's address (the old link stops working). Whoever holds a claim link chooses where the refund goes, so only the member who created the refund may issue one: with any API key that member created (the one that made the refund, or another of theirs), or on the dashboard. A key of another member that can read the refund gets 403 refund-link-not-creator (cancel it and create a new refund instead); any other key 404. Only while it is awaiting_address (else 400 refund-link-unavailable); the claim's deadline stays. The answer is the refund with the new claimUrl — the only time that link is shown. Audited as refund.claim_link_issued (never the link).",
      requestParams: refundIdParam,
      responses: {
        "200": answer("The refund with its new claimUrl", refundSchema, claimRefundExample),
        ...refusals(OPERATION_REASONS.issueClaimLink, ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", ...V1_ERRORS], {
          VALIDATION_ERROR: {
            message: "this refund is sending; a claim link is issued only while it waits for the payer's address",
            reason: "refund-link-unavailable",
          },
          FORBIDDEN: {
            message:
              "only the member who created this refund (on the dashboard, or with one of their API keys) can issue its claim link; cancel it and create a new refund instead",
            reason: "refund-link-not-creator",
          },
          ...refundNotFound,
        }),
      },
    },
  },
  "/api/user/payment-links": {
    get: {
      ...member("read"),
      ...tagged("Payment links"),
      operationId: "listPaymentLinks",
      summary: "List payment links",
      description: "Your payment links, newest first, with their figures (completed payments, amount received, last payment).",
      responses: {
        "200": answer("OK", z.object({ items: z.array(paymentLinkSchema) }), { items: [linkExample] }),
        ...memberErrors("read", ["UNAUTHORIZED"]),
      },
    },
    post: {
      ...member("payments"),
      ...tagged("Payment links"),
      operationId: "createPaymentLink",
      summary: "Create a payment link",
      description:
        "A page at /l/<slug> where each Pay starts a fresh session. Give either amount (a fixed price) or minAmount (the payer chooses at least that).",
      requestBody: json(createLinkSchema, {
        fixed: {
          title: "Coffee beans, 1 kg",
          description: "Single origin, roasted this week.",
          tokenId: 1,
          amount: "18",
          redirectUrl: `${EX.shop}/thanks`,
        },
        payerChooses: { title: "Tip jar", tokenId: 1, minAmount: "1" },
      }),
      responses: {
        "201": answer("Created", paymentLinkSchema, { ...linkExample, stats: { payments: 0, received: "0", lastPaymentAt: null } }),
        ...memberErrors("payments", ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND", "DOMAIN_NOT_WHITELISTED"], {
          NOT_FOUND: { message: "token not found", reason: "not-found" },
          DOMAIN_NOT_WHITELISTED: { message: "whitelist a domain (POST /api/user/domains) before creating payments", reason: "no-domain" },
        }),
      },
    },
  },
  "/api/user/payment-links/{id}": {
    get: {
      ...member("read"),
      ...tagged("Payment links"),
      operationId: "getPaymentLink",
      summary: "Get a payment link",
      requestParams: idParam("payment link", 12),
      responses: {
        "200": answer("OK", paymentLinkSchema, linkExample),
        ...memberErrors("read", ["UNAUTHORIZED", "NOT_FOUND"], linkNotFound),
      },
    },
    patch: {
      ...member("payments"),
      ...tagged("Payment links"),
      operationId: "updatePaymentLink",
      summary: "Update a payment link",
      description: "Changes any field; active: false deactivates it, true turns it on again.",
      requestParams: idParam("payment link", 12),
      requestBody: json(updateLinkSchema, { newPrice: { amount: "19.5" } }),
      responses: {
        "200": answer("OK", paymentLinkSchema, { ...linkExample, amount: "19.5" }),
        ...memberErrors("payments", ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], linkNotFound),
      },
    },
    delete: {
      ...member("payments"),
      ...tagged("Payment links"),
      operationId: "deactivatePaymentLink",
      summary: "Deactivate a payment link",
      description: "The link is kept: its payments refer to it.",
      requestParams: idParam("payment link", 12),
      responses: {
        "200": answer("OK", paymentLinkSchema, { ...linkExample, active: false }),
        ...memberErrors("payments", ["UNAUTHORIZED", "NOT_FOUND"], linkNotFound),
      },
    },
  },
};
