/**
 * A one-off payment made by the merchant on the dashboard (no API key): the same rules as
 * POST /api/v1/payment/create — the same schema, the same domain, plan and quota checks in
 * the same single statement — with its refusals in the merchant's words, each tied to the field
 * or the page that fixes it. A refusal writes nothing (no session, no quota used).
 */
import { z } from "zod";
import { AppError, commonRefusal, type ErrorDetail, refusal } from "../../../base/errors";
import { formatAmount } from "../../../base/money";
import { asSentence } from "../../../base/sentences";
import type { Db } from "../../../db";
import { createPaymentSession } from "../../../domain/payments/create-session";
import { type PaymentReason, paymentRefusal } from "../../../domain/payments/reasons";
import { createPaymentSchema, displayTextSchema, MAX_DESCRIPTION_LENGTH, MAX_ORDER_ID_LENGTH } from "../../../domain/payments/schemas";
import type { PlanReason } from "../../../domain/plans/reasons";
import { acceptedTokenMinimum } from "../../../domain/tokens/accepted-tokens";
import { findOwnToken } from "../../../domain/tokens/find-own-token";

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** The form's fields as the browser sends them (strings; empty optional fields are left out). */
export const dashboardPaymentSchema = z.object({
  tokenId: z.preprocess(blankToUndefined, z.coerce.number({ error: "Choose a token." }).int().positive({ error: "Choose a token." })),
  amount: z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string().min(1, { error: "Enter an amount." })),
  description: z.preprocess(blankToUndefined, z.string().optional()),
  orderId: z.preprocess(blankToUndefined, z.string().optional()),
  domainId: z.preprocess(blankToUndefined, z.coerce.number().int().positive({ error: "Choose a domain." }).optional()),
});
export type DashboardPaymentInput = z.input<typeof dashboardPaymentSchema>;

export interface DashboardPayment {
  sessionId: string;
  checkoutUrl: string;
  amount: string;
  token: string;
  expiresAt: string;
}

/**
 * The API's schema with the form's names for its text fields, so their messages read as the form
 * says them ("Order reference must be one line"), and the amount's problems in one sentence.
 */
const formPaymentSchema = createPaymentSchema.extend({
  description: displayTextSchema("Description", MAX_DESCRIPTION_LENGTH, true).optional(),
  orderId: displayTextSchema("Order reference", MAX_ORDER_ID_LENGTH, false).optional(),
});
const AMOUNT_FORMAT = "Enter an amount such as 10.5: digits and at most one dot, no commas or spaces.";

export async function createDashboardPayment(
  db: Db,
  userId: number,
  form: z.output<typeof dashboardPaymentSchema>,
): Promise<DashboardPayment> {
  const parsed = formPaymentSchema.safeParse(form);
  if (!parsed.success) {
    const details: ErrorDetail[] = parsed.error.issues.map((issue) => {
      const path = String(issue.path[0] ?? "form");
      return { path, message: path === "amount" ? AMOUNT_FORMAT : asSentence(issue.message) };
    });
    // biome-ignore lint/style/noNonNullAssertion: a failed zod parse reports at least one issue
    throw commonRefusal("VALIDATION_ERROR", "invalid-request", details[0]!.message, details);
  }
  const token = await findOwnToken(db, userId, parsed.data.tokenId);
  if (!token) throw fieldError("tokenId", "Choose one of your registered tokens.", "token-unknown");
  try {
    const created = await createPaymentSession(db, { userId, apiKeyId: null }, parsed.data, null);
    return {
      sessionId: created.sessionId,
      checkoutUrl: created.checkoutUrl,
      amount: created.amount,
      token: created.token,
      expiresAt: created.expiresAt,
    };
  } catch (error) {
    throw await inMerchantWords(db, error, parsed.data, token);
  }
}

function fieldError(path: string, message: string, reason: PaymentReason): AppError {
  return paymentRefusal("VALIDATION_ERROR", reason, message, [{ path, message }]);
}

/** The create's refusals (written for API clients), by reason, as what the merchant should do next. */
async function inMerchantWords(
  db: Db,
  error: unknown,
  input: { domainId?: number },
  token: { symbol: string; decimals: number; network: string; contractAddress: string },
): Promise<unknown> {
  if (!(error instanceof AppError)) return error;
  const reason = error.reason as PaymentReason | PlanReason | undefined;
  switch (reason) {
    case "no-plan":
      return refusal("NO_PACKAGE", reason, "Choose a plan before creating payments.");
    case "plan-quota-used-up":
      return refusal("NO_PACKAGE", reason, "This month's payments on your plan are used up. Upgrade your plan to create more.");
    case "no-domain":
      return refusal("DOMAIN_NOT_WHITELISTED", reason, "Add your shop's domain before creating payments.");
    case "origin-not-whitelisted":
    case "domain-not-yours":
      return input.domainId !== undefined
        ? fieldError("domainId", "Choose one of your domains.", reason)
        : refusal("DOMAIN_NOT_WHITELISTED", reason, "Add your shop's domain before creating payments.");
    case "amount-too-precise":
      return fieldError(
        "amount",
        `${token.symbol} has ${token.decimals} decimals: use at most ${token.decimals} digits after the dot.`,
        reason,
      );
    case "amount-zero":
      return fieldError("amount", "The amount must be more than 0.", reason);
    case "amount-too-large":
      return fieldError("amount", "That amount is too large.", reason);
    case "amount-malformed":
      return fieldError("amount", AMOUNT_FORMAT, reason);
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
