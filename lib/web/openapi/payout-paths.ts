/** Payouts to many at once in the OpenAPI document (docs/design.md §24). */

import { z } from "zod";
import { createPayoutsSchema, payoutBatchViewSchema, payoutListQuerySchema } from "../../domain/payouts/schemas";
import { EX, payoutBatchExample } from "./examples";
import { OPERATION_REASONS } from "./reasons";
import { answer, badId, badLimit, batchIdParam, idempotencyHeader, json, refusals, V1_ERRORS, v1Scope } from "./shared";
import { tagged } from "./tags";

const { items: _items, ...batchSummaryExample } = payoutBatchExample;

export const payoutPaths = {
  "/api/v1/payouts": {
    post: {
      ...v1Scope("payouts"),
      ...tagged("Payouts"),
      operationId: "createPayout",
      summary: "Create a payout batch",
      description:
        "Pays up to 500 recipients of one token at once from the domain's withdrawal wallet. The whole request is validated before anything is recorded: any bad item answers VALIDATION_ERROR (reason payout-items-invalid, or invalid-request for a malformed field) with `details` naming each bad item as items.<index>.<field>, and nothing is recorded. Amounts are decimal strings in token units, each at least the token's minimum withdrawal. The wallet must hold the total beyond what its open withdrawals and payouts still take (else BLOCKCHAIN_ERROR wallet-short-of-tokens, nothing recorded). Items are paid in as few transactions as the block gas limit allows (about 114 per transaction on a 30M-gas block); each item goes pending → sending → completed | failed, and a recipient the token refuses fails only its own item. Webhooks: payout.completed / payout.failed per item (with batchId and index), payout_batch.completed once every item is final (status completed, partially_failed or failed). Same Idempotency-Key and body within 24 h answers the first batch as recorded; another body is IDEMPOTENCY_CONFLICT.",
      requestParams: idempotencyHeader,
      requestBody: json(createPayoutsSchema, {
        payouts: {
          domainId: 3,
          tokenId: 1,
          items: [
            { toAddress: EX.recipient, amount: "25", reference: "INV-2026-118" },
            { toAddress: EX.recipient2, amount: "15", reference: "INV-2026-119" },
          ],
        },
      }),
      responses: {
        "201": answer("Recorded (and its first chunks sent)", payoutBatchViewSchema, {
          ...payoutBatchExample,
          status: "sending",
          counts: { pending: 0, sending: 2, completed: 0, failed: 0 },
          completedAt: null,
          items: payoutBatchExample.items.map((item) => ({ ...item, status: "sending" as const, completedAt: null })),
        }),
        ...refusals(
          OPERATION_REASONS.createPayouts,
          ["VALIDATION_ERROR", "NOT_FOUND", "BLOCKCHAIN_ERROR", "IDEMPOTENCY_CONFLICT", ...V1_ERRORS],
          {
            VALIDATION_ERROR: {
              message: "1 of 2 items are invalid (first: items.1.amount must be at least 1 USDT); nothing was recorded",
              reason: "payout-items-invalid",
              details: [{ path: "items.1.amount", message: "must be at least 1 USDT" }],
            },
            NOT_FOUND: { message: "domain not found", reason: "not-found" },
            BLOCKCHAIN_ERROR: {
              message:
                "not enough tokens in the withdrawal wallet: it holds 30000000000000000000 base units (≈30); 40000000000000000000 needed",
              reason: "wallet-short-of-tokens",
            },
          },
        ),
      },
    },
    get: {
      ...v1Scope("payouts"),
      ...tagged("Payouts"),
      operationId: "listPayouts",
      summary: "List payout batches",
      description: "The API key's payout batches, newest first (without their items).",
      requestParams: { query: payoutListQuerySchema },
      responses: {
        "200": answer("OK", z.object({ items: z.array(payoutBatchViewSchema.omit({ items: true })), nextCursor: z.string().nullable() }), {
          items: [batchSummaryExample],
          nextCursor: EX.batchId,
        }),
        ...refusals(OPERATION_REASONS.read, ["VALIDATION_ERROR", ...V1_ERRORS], badLimit),
      },
    },
  },
  "/api/v1/payouts/{batchId}": {
    get: {
      ...v1Scope("payouts"),
      ...tagged("Payouts"),
      operationId: "getPayoutBatch",
      summary: "Get a payout batch",
      description: "One payout batch with every item's status and txHash (another key's is NOT_FOUND).",
      requestParams: batchIdParam,
      responses: {
        "200": answer("OK", payoutBatchViewSchema, payoutBatchExample),
        ...refusals([...OPERATION_REASONS.read, "payout-batch-not-found"], ["VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS], {
          ...badId("batchId"),
          NOT_FOUND: { message: `payout batch ${EX.batchId} not found`, reason: "payout-batch-not-found" },
        }),
      },
    },
  },
};
