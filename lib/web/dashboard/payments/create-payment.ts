/**
 * A one-off payment made by the merchant on the dashboard (no API key): the same rules as
 * POST /api/v1/payment/create — the same schema, the same domain, plan and quota checks in
 * the same single statement — with its refusals in the merchant's words, each tied to the field
 * or the page that fixes it. A refusal writes nothing (no session, no quota used).
 *
 * Priced in a token (here), or in the account's currency (create-fiat-payment.ts, docs/design.md §23).
 */
import { AppError } from "../../../base/errors";
import { formatAmount } from "../../../base/money";
import { asSentence } from "../../../base/sentences";
import type { Db } from "../../../db";
import { createPaymentSession } from "../../../domain/payments/create-session";
import type { PaymentReason } from "../../../domain/payments/reasons";
import { acceptedTokenMinimum } from "../../../domain/tokens/accepted-tokens";
import { findOwnToken } from "../../../domain/tokens/find-own-token";
import { createFiatDashboardPayment } from "./create-fiat-payment";
import {
  type DashboardPayment,
  type DashboardPaymentForm,
  fieldError,
  formPaymentSchema,
  parseForm,
  sharedWords,
  TOKEN_EXAMPLE,
} from "./payment-form";

export { type DashboardPayment, type DashboardPaymentInput, dashboardPaymentSchema } from "./payment-form";

/** A token price given without `priceIn` (the form's default) is one too. */
type TokenPriced = Omit<Extract<DashboardPaymentForm, { priceIn: "token" }>, "priceIn"> & { priceIn?: "token" };

export async function createDashboardPayment(db: Db, userId: number, form: DashboardPaymentForm | TokenPriced): Promise<DashboardPayment> {
  if (form.priceIn === "currency") return createFiatDashboardPayment(db, userId, form);
  const { priceIn: _, ...fields } = form;
  const input = parseForm(formPaymentSchema, fields, TOKEN_EXAMPLE);
  const token = await findOwnToken(db, userId, input.tokenId);
  if (!token) throw fieldError("tokenId", "Choose one of your registered tokens.", "token-unknown");
  try {
    const created = await createPaymentSession(db, { userId, apiKeyId: null }, input, null);
    return {
      sessionId: created.sessionId,
      checkoutUrl: created.checkoutUrl,
      amount: created.amount,
      token: created.token,
      expiresAt: created.expiresAt,
      fiatAmount: null,
      currency: null,
    };
  } catch (error) {
    throw await inMerchantWords(db, error, input, token);
  }
}

/** The create's refusals (written for API clients), by reason, as what the merchant should do next. */
async function inMerchantWords(
  db: Db,
  error: unknown,
  input: { domainId?: number },
  token: { symbol: string; decimals: number; network: string; contractAddress: string },
): Promise<unknown> {
  if (!(error instanceof AppError)) return error;
  const shared = sharedWords(error.reason, input, TOKEN_EXAMPLE);
  if (shared) return shared;
  const reason = error.reason as PaymentReason | undefined;
  switch (reason) {
    case "amount-too-precise":
      return fieldError(
        "amount",
        `${token.symbol} has ${token.decimals} decimals: use at most ${token.decimals} digits after the dot.`,
        reason,
      );
    case "amount-below-minimum": {
      const minimum = await acceptedTokenMinimum(db, token.network, token.contractAddress);
      const least = minimum === null ? null : formatAmount(minimum, token.decimals);
      return least === null
        ? fieldError("amount", `${token.symbol} cannot take payments on this gateway any more. Choose another token.`, reason)
        : fieldError("amount", `Enter at least ${least} ${token.symbol}: the smallest payment this gateway takes in it.`, reason);
    }
    case "token-not-accepted":
    case "token-network-not-served":
      return fieldError("tokenId", `${token.symbol} cannot take payments on this gateway any more. Choose another token.`, reason);
    default:
      return error.code === "VALIDATION_ERROR"
        ? new AppError("VALIDATION_ERROR", asSentence(error.message), undefined, undefined, error.reason)
        : error;
  }
}
