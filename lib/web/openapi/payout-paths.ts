/** Payouts to many at once in the OpenAPI document (issue 36, docs/design.md §24). */

import { z } from "zod";
import { createPayoutsSchema, payoutBatchViewSchema, payoutListQuerySchema } from "../../domain/payout-batches/schemas";
import { OPERATION_REASONS } from "./reasons";
import { envelope, idempotencyHeader, json, refusals, V1_ERRORS, v1Scope } from "./shared";

const batchIdParam = { path: z.object({ batchId: z.string().meta({ description: "UUID of the payout batch." }) }) };

export const payoutPaths = {
  "/api/v1/payouts": {
    post: {
      ...v1Scope("payouts"),
      summary: "Pay up to 500 recipients of one token at once from the domain's withdrawal wallet",
      description:
        "The whole request is validated before anything is recorded: any bad item answers VALIDATION_ERROR (reason payout-items-invalid, or invalid-request for a malformed field) with `details` naming each bad item as items.<index>.<field>, and nothing is recorded. Amounts are decimal strings in token units, each at least the token's minimum withdrawal. The wallet must hold the total beyond what its open withdrawals and payouts still take (else BLOCKCHAIN_ERROR wallet-short-of-tokens, nothing recorded). Items are paid in as few transactions as the block gas limit allows (about 114 per transaction on a 30M-gas block); each item goes pending → sending → completed | failed, and a recipient the token refuses fails only its own item. Webhooks: payout.completed / payout.failed per item (with batchId and index), payout_batch.completed once every item is final (status completed, partially_failed or failed). Same Idempotency-Key and body within 24 h answers the first batch as recorded; another body is IDEMPOTENCY_CONFLICT.",
      requestParams: idempotencyHeader,
      requestBody: json(createPayoutsSchema),
      responses: {
        "201": { description: "Recorded (and its first chunks sent)", ...json(envelope(payoutBatchViewSchema)) },
        ...refusals(
          OPERATION_REASONS.createPayouts,
          "VALIDATION_ERROR",
          "NOT_FOUND",
          "BLOCKCHAIN_ERROR",
          "IDEMPOTENCY_CONFLICT",
          ...V1_ERRORS,
        ),
      },
    },
    get: {
      ...v1Scope("payouts"),
      summary: "The API key's payout batches, newest first (without their items)",
      requestParams: { query: payoutListQuerySchema },
      responses: {
        "200": {
          description: "OK",
          ...json(envelope(z.object({ items: z.array(payoutBatchViewSchema.omit({ items: true })), nextCursor: z.string().nullable() }))),
        },
        ...refusals(OPERATION_REASONS.read, "VALIDATION_ERROR", ...V1_ERRORS),
      },
    },
  },
  "/api/v1/payouts/{batchId}": {
    get: {
      ...v1Scope("payouts"),
      summary: "One payout batch with every item's status and txHash (another key's is NOT_FOUND)",
      requestParams: batchIdParam,
      responses: {
        "200": { description: "OK", ...json(envelope(payoutBatchViewSchema)) },
        ...refusals([...OPERATION_REASONS.read, "payout-batch-not-found"], "VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS),
      },
    },
  },
};
