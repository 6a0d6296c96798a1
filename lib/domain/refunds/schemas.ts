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
        "Send straight to this address (one the payer gave you). Without it the refund waits for the payer to give an address at claimUrl.",
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

export const refundSchema = z
  .object({
    refundId: z.string(),
    sessionId: z.string(),
    status: z.enum(REFUND_STATUSES).meta({
      description:
        "awaiting_address (waits for the payer at claimUrl), awaiting_funds (has its address; the withdrawal wallet cannot pay it yet, see reason: sent by itself once it can), sending, completed, failed, cancelled.",
    }),
    amount: z.string(),
    token: z.string(),
    network: z.string(),
    toAddress: z.string().nullable(),
    addressFrom: z.enum(["merchant", "payer"]).nullable(),
    claimUrl: z.string().meta({ description: "Send this to the payer: the page where they give the address (while awaiting_address)." }),
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
