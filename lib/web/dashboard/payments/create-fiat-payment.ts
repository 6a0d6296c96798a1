/**
 * A one-off payment priced in the account's currency, made on the dashboard (docs/design.md §23):
 * the API's fiat create — its schema, the quotes read from the chain's feeds first
 * (prepareFiatPrice, outside any transaction), then the same createPaymentSession — with no API
 * key, and its refusals in the merchant's words. A refusal writes nothing.
 */
import { AppError } from "../../../base/errors";
import { asSentence } from "../../../base/sentences";
import type { Db } from "../../../db";
import { createPaymentSession } from "../../../domain/payments/create-session";
import { prepareFiatPrice } from "../../../domain/payments/fiat-price";
import type { PaymentReason } from "../../../domain/payments/reasons";
import { FIAT_MINOR_UNITS } from "../../../domain/pricing/fiat";
import { accountCurrencyOf } from "../account/account-settings";
import {
  type DashboardPayment,
  type DashboardPaymentForm,
  fieldError,
  formFiatPaymentSchema,
  parseForm,
  sharedWords,
} from "./payment-form";

export async function createFiatDashboardPayment(
  db: Db,
  userId: number,
  form: Extract<DashboardPaymentForm, { priceIn: "currency" }>,
): Promise<DashboardPayment> {
  const currency = await accountCurrencyOf(db, userId);
  const minorDigits = FIAT_MINOR_UNITS[currency] ?? 2;
  const example = minorDigits === 0 ? "2500" : `25.${"0".repeat(minorDigits)}`;
  const { priceIn: _, ...fields } = form;
  const input = parseForm(formFiatPaymentSchema, { ...fields, currency }, example);
  try {
    const price = await prepareFiatPrice(db, userId, input);
    const created = await createPaymentSession(db, { userId, apiKeyId: null }, { ...input, price }, null);
    return {
      sessionId: created.sessionId,
      checkoutUrl: created.checkoutUrl,
      amount: created.amount,
      token: created.token,
      expiresAt: created.expiresAt,
      fiatAmount: created.fiatAmount ?? null,
      currency: created.currency ?? null,
    };
  } catch (error) {
    throw inMerchantWords(error, input, currency, minorDigits, example);
  }
}

/** Why a token was not offered (lib/domain/pricing/reasons.ts), as the merchant reads it. */
function whyNotOffered(reason: string): string {
  if (reason === "amount-below-minimum") return "the price is below the smallest payment the gateway takes in it";
  if (reason === "feed-stale" || reason === "currency-feed-stale") return "its price is out of date";
  if (reason === "depegged") return "it is too far from its peg";
  if (reason === "feed-not-configured" || reason === "currency-feed-not-configured") return "the gateway has no price for it";
  return "its price cannot be read now";
}

function inMerchantWords(error: unknown, input: { domainId?: number }, currency: string, minorDigits: number, example: string): unknown {
  if (!(error instanceof AppError)) return error;
  const shared = sharedWords(error.reason, input, example);
  if (shared) return shared;
  const reason = error.reason as PaymentReason | undefined;
  switch (reason) {
    case "amount-too-precise":
      return fieldError(
        "amount",
        minorDigits === 0
          ? `${currency} has no decimals: enter a whole amount.`
          : `${currency} has ${minorDigits} decimals: use at most ${minorDigits} digits after the dot.`,
        reason,
      );
    case "token-unknown":
      return fieldError("priceIn", "Register a token the gateway accepts first: it is what your customer pays with.", reason);
    case "no-token-offered": {
      // details: "DUSD: feed-stale", one per token (lib/domain/payments/fiat-price.ts).
      const why = (error.details ?? []).map((d) => {
        const [symbol, key] = d.message.split(": ");
        return `${symbol}: ${whyNotOffered(key ?? "")}`;
      });
      return fieldError(
        "amount",
        `None of your tokens can take a price in ${currency} now${why.length ? ` (${why.join("; ")})` : ""}. Try again later, or price it in a token.`,
        reason,
      );
    }
    default:
      return error.code === "VALIDATION_ERROR"
        ? new AppError("VALIDATION_ERROR", asSentence(error.message), undefined, undefined, error.reason)
        : error;
  }
}
