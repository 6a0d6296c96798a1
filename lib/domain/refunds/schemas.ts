/** Request and response schemas of refunds: they validate requests and feed openapi.json. */

import { z } from "zod";
import { amountStringSchema } from "../../base/money";
import { REFUND_BASES, REFUND_STATUSES } from "../../db/schema";
import { addressSchema } from "../../engine/chain/address";

export const createRefundSchema = z
  .object({
    amount: amountStringSchema("amount").optional().meta({
      description:
        "Decimal amount in whole tokens. Default: the overpaid part and late transfers of a completed payment (less its refunds so far), everything not yet refunded of an expired or cancelled one. A completed payment with nothing (left) beyond its price has no default: without an amount the refund is refused (400 VALIDATION_ERROR on `amount`), so refunding the price takes an explicit amount.",
      example: "2.5",
    }),
    toAddress: addressSchema("toAddress").optional().meta({
      description:
        "Send straight to this address (one the payer gave you). Without it the refund waits for the payer to give an address at claimUrl (in this answer only). Above the account's approval threshold the refund is approved with its destination: this address, or — without one — the address the payer claims, before anything is sent.",
    }),
    basis: z.enum(REFUND_BASES).optional().meta({
      description:
        'Fiat-priced payments only (a token-priced one refuses it: refund-basis-token-priced). "tokens" (default): give back tokens, `amount` as above. "fiat": give back `fiatAmount` in the payment\'s currency at today\'s rate of the token that paid (read from its price feed now; stale, missing or more than 3 % off its peg → 400 refund-rate-unavailable, nothing recorded). Token amount = fiatAmount ÷ rate, rounded up (the payer never gets less than fiatAmount at that rate); more than the payment can still refund → 400 refund-exceeds-refundable (never capped).',
      example: "fiat",
    }),
    fiatAmount: amountStringSchema("fiatAmount").optional().meta({
      description:
        'With basis "fiat" only: the amount in the payment\'s currency, at most its minor units ("10.50"). Default: the payment\'s whole fiat price.',
      example: "10.50",
    }),
  })
  .meta({ id: "CreateRefundRequest" });

export type CreateRefundInput = z.output<typeof createRefundSchema>;

export const claimRefundSchema = z
  .object({ address: addressSchema("address").meta({ description: "The payer's BSC address." }) })
  .meta({ id: "ClaimRefundRequest" });

/** The claim link's secret, as the public claim routes take it (the `k` of `/refund/<id>?k=…`). */
export const claimSecretQuerySchema = z.object({
  k: z.string().optional().meta({
    description:
      "The secret of the refund's claim link (the `k` of /refund/<refundId>?k=…). A wrong or missing one is answered exactly as an unknown refund: 404 not-found.",
    example: "x7Qp0mZb3dY9kV2rT5wN8cH1sL4eA6gJ0uF3iO7yB2Q",
  }),
});

export const refundSchema = z
  .object({
    refundId: z.string(),
    sessionId: z.string(),
    status: z.enum(REFUND_STATUSES).meta({
      description:
        "awaiting_address (waits for the payer at its claim link), awaiting_funds (has its address; the withdrawal wallet cannot pay it yet, see reason: sent by itself once it can), sending, completed, failed, cancelled; above the approval threshold awaiting_approval (a second member approves it with its address: the merchant's, or the one the payer claimed) and rejected.",
    }),
    amount: z.string(),
    token: z.string(),
    network: z.string(),
    toAddress: z.string().nullable(),
    addressFrom: z.enum(["merchant", "payer"]).nullable(),
    claimUrl: z.string().nullable().meta({
      description:
        "Send this to the payer: the page where they give the address. It carries the claim's secret, so it is set only in the answer that made it — the refund's creation, or POST /api/v1/refund/{refundId}/claim-link — and null everywhere else (reads, lists, webhooks, an Idempotency-Key replay): keep it, or issue a new one.",
    }),
    claimLinkIssued: z.boolean().meta({
      description:
        "The refund has a claim link (the one given once in claimUrl). false for a refund sent to your address, and for a claim made before links carried a secret: issue one with POST /api/v1/refund/{refundId}/claim-link.",
    }),
    claimExpiresAt: z.string(),
    withdrawalId: z.string().nullable(),
    txHash: z.string().nullable(),
    reason: z.string().nullable().meta({
      description:
        "Why it failed or was cancelled; while awaiting_address, why the payer's last claim could not be sent (e.g. the wallet lacks gas: the payer was only told to try later); while awaiting_funds, why the withdrawal wallet cannot pay it yet (the payment's forward has not reached it; or the payment was forwarded to another address, so it waits until the merchant sends the tokens to the wallet, or cancels it).",
    }),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    basis: z.enum(REFUND_BASES).optional().meta({
      description:
        'Refunds of fiat-priced payments only (absent for token-priced ones): "tokens" (the tokens paid) or "fiat" (a fiat amount at the rate of the refund\'s creation; then currency, fiatAmount, rate, rateSource and ratedAt are set).',
    }),
    currency: z.string().optional().meta({ description: 'basis "fiat": the payment\'s currency (ISO 4217).' }),
    fiatAmount: z.string().optional().meta({ description: 'basis "fiat": the amount refunded in that currency ("10.50").' }),
    rate: z
      .string()
      .optional()
      .meta({ description: 'basis "fiat": the rate used, the currency\'s value of one whole token, 8 decimals ("0.99000000").' }),
    rateSource: z
      .string()
      .optional()
      .meta({ description: 'basis "fiat": where the rate came from ("chainlink:<feed>[/<currency feed>]").' }),
    ratedAt: z.string().optional().meta({ description: 'basis "fiat": when the rate was read (ISO 8601).' }),
  })
  .meta({ id: "Refund" });
