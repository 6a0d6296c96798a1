/** Payment sessions and withdrawals of /api/v1 in the OpenAPI document. */

import { z } from "zod";
import {
  cancelResponseSchema,
  createFiatPaymentSchema,
  createPaymentResponseSchema,
  createPaymentSchema,
  historyPageSchema,
  paymentHistoryItemSchema,
  paymentHistoryQuerySchema,
  paymentStatusSchema,
} from "../../domain/payments/schemas";
import { sendWithdrawalSchema, withdrawalHistoryQuerySchema, withdrawalSchema } from "../../domain/withdrawals/schemas";
import { cursorPage, EX, paymentHistoryItemExample, paymentSessionExample, paymentStatusExample, withdrawalExample } from "./examples";
import { OPERATION_REASONS as reasons } from "./reasons";
import {
  answer,
  badId,
  badLimit,
  idempotencyHeader,
  json,
  refusals,
  sessionIdParam,
  V1_ERRORS,
  v1Scope,
  withdrawalIdParam,
} from "./shared";
import { tagged } from "./tags";

/** How both histories page (docs/design.md §25). */
const HISTORY_PAGING =
  "Two ways to page. By `cursor` (recommended): send `cursor=` (empty) for the newest rows, then each answer's `nextCursor` (in `data` and in `data.meta`) until it is null; the walk skips and repeats nothing while new rows arrive, costs the same at any depth and combines with the filters; `meta.page` is null. By `page`/`limit` (without `cursor`): the answer is `{items, meta:{page, limit, total, pages}}` as it always was. `meta.total` counts the rows matching the filters. A `cursor` this service did not hand out is a VALIDATION_ERROR.";

const notFound = (what: string) => ({ NOT_FOUND: { message: `${what} not found`, reason: "not-found" as const } });

export const paymentPaths = {
  "/api/v1/payment/create": {
    post: {
      ...v1Scope("payments:write"),
      ...tagged("Payments"),
      operationId: "createPayment",
      summary: "Create a payment session",
      description:
        "Priced in a token (`tokenId` + `amount`, in that token), or in a fiat currency (`currency` + `amount`, optionally `tokens`): the payer then pays in any offered token at a quote locked from Chainlink price feeds for QUOTE_TTL_SECONDS. Both `tokenId` and `currency` is refused (token-and-currency).",
      requestParams: idempotencyHeader,
      requestBody: json(z.union([createPaymentSchema, createFiatPaymentSchema]), {
        token: { tokenId: 1, amount: "10.5", orderId: "ORD-10042", description: "2 × Flat white", metadata: { cartId: "c_7781" } },
        fiat: { currency: "USD", amount: "25.00", tokens: [1, 2], orderId: "ORD-10043" },
      }),
      responses: {
        "201": answer("Created", createPaymentResponseSchema, paymentSessionExample),
        ...refusals(reasons.createPayment, [
          "VALIDATION_ERROR",
          "NO_PACKAGE",
          "DOMAIN_NOT_WHITELISTED",
          "IDEMPOTENCY_CONFLICT",
          ...V1_ERRORS,
        ]),
      },
    },
  },
  "/api/v1/payment/{sessionId}/status": {
    get: {
      ...v1Scope("payments:read"),
      ...tagged("Payments"),
      operationId: "getPaymentStatus",
      summary: "Get a session's status",
      description: "The session's current state: poll it every 5–10 s.",
      requestParams: sessionIdParam,
      responses: {
        "200": answer("OK", paymentStatusSchema, paymentStatusExample),
        ...refusals(reasons.read, ["VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS], {
          ...badId("sessionId"),
          ...notFound("payment session"),
        }),
      },
    },
  },
  "/api/v1/payment/{sessionId}/cancel": {
    post: {
      ...v1Scope("payments:write"),
      ...tagged("Payments"),
      operationId: "cancelPayment",
      summary: "Cancel a payment session",
      description: "Cancels a pending session; a terminal one is left as it is.",
      requestParams: sessionIdParam,
      responses: {
        "200": answer("OK", cancelResponseSchema, { message: "payment session cancelled", status: "cancelled" }),
        ...refusals(reasons.read, ["VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS], {
          ...badId("sessionId"),
          ...notFound("payment session"),
        }),
      },
    },
  },
  "/api/v1/payment/history": {
    get: {
      ...v1Scope("payments:read"),
      ...tagged("Payments"),
      operationId: "listPayments",
      summary: "List payment sessions",
      description: `The API key's sessions, newest first. ${HISTORY_PAGING}`,
      requestParams: { query: paymentHistoryQuerySchema },
      responses: {
        "200": answer("OK", historyPageSchema(paymentHistoryItemSchema), cursorPage([paymentHistoryItemExample])),
        ...refusals(reasons.read, ["VALIDATION_ERROR", ...V1_ERRORS], badLimit),
      },
    },
  },
  "/api/v1/withdrawal/send": {
    post: {
      ...v1Scope("withdrawals"),
      ...tagged("Withdrawals"),
      operationId: "createWithdrawal",
      summary: "Send a withdrawal",
      description:
        "Sends tokens from the domain's withdrawal wallet. At least the token's minimum withdrawal (VALIDATION_ERROR below it, or for a token the operator disallowed). RATE_LIMITED with Retry-After (until 00:00 UTC) once today's gas spent for the merchant reached its plan's daily budget, or today's withdrawal requests its limit; incoming payments are still swept.",
      requestParams: idempotencyHeader,
      requestBody: json(sendWithdrawalSchema, { withdrawal: { domainId: 3, tokenId: 1, toAddress: EX.recipient, amount: "25" } }),
      responses: {
        "201": answer("Submitted", withdrawalSchema, withdrawalExample),
        ...refusals(reasons.sendWithdrawal, ["VALIDATION_ERROR", "NOT_FOUND", "BLOCKCHAIN_ERROR", "IDEMPOTENCY_CONFLICT", ...V1_ERRORS]),
      },
    },
  },
  "/api/v1/withdrawal/history": {
    get: {
      ...v1Scope("withdrawals"),
      ...tagged("Withdrawals"),
      operationId: "listWithdrawals",
      summary: "List withdrawals",
      description: `The API key's withdrawals, newest first. ${HISTORY_PAGING}`,
      requestParams: { query: withdrawalHistoryQuerySchema },
      responses: {
        "200": answer("OK", historyPageSchema(withdrawalSchema), cursorPage([withdrawalExample])),
        ...refusals(reasons.read, ["VALIDATION_ERROR", ...V1_ERRORS], badLimit),
      },
    },
  },
  "/api/v1/withdrawal/{withdrawalId}": {
    get: {
      ...v1Scope("withdrawals"),
      ...tagged("Withdrawals"),
      operationId: "getWithdrawal",
      summary: "Get a withdrawal",
      description: "One withdrawal of the API key (another key's is NOT_FOUND).",
      requestParams: withdrawalIdParam,
      responses: {
        "200": answer("OK", withdrawalSchema, { ...withdrawalExample, status: "completed", confirmedAt: "2026-11-28T09:12:41.000Z" }),
        ...refusals(reasons.read, ["VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS], {
          ...badId("withdrawalId"),
          ...notFound("withdrawal"),
        }),
      },
    },
  },
};
