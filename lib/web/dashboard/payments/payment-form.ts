/**
 * The dashboard's new-payment form (create-payment.ts, create-fiat-payment.ts): its fields as the
 * browser sends them, the API's schemas with the form's words, and the refusals both prices share
 * (plan, quota, domain, the amount's format) in the merchant's words, each tied to its field or
 * to the page that fixes it.
 */
import { z } from "zod";
import { type AppError, commonRefusal, type ErrorDetail, refusal } from "../../../base/errors";
import { asSentence } from "../../../base/sentences";
import { type PaymentReason, paymentRefusal } from "../../../domain/payments/reasons";
import {
  createFiatPaymentSchema,
  createPaymentSchema,
  displayTextSchema,
  MAX_DESCRIPTION_LENGTH,
  MAX_ORDER_ID_LENGTH,
} from "../../../domain/payments/schemas";
import type { PlanReason } from "../../../domain/plans/reasons";

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);

/** What both prices take besides the token (the API's schema checks them again). */
const commonFields = {
  amount: z.preprocess(trimmed, z.string().min(1, { error: "Enter an amount." })),
  description: z.preprocess(blankToUndefined, z.string().optional()),
  orderId: z.preprocess(blankToUndefined, z.string().optional()),
  domainId: z.preprocess(blankToUndefined, z.coerce.number().int().positive({ error: "Choose a domain." }).optional()),
};

/**
 * The form's fields as the browser sends them (strings; empty optional fields are left out).
 * `priceIn` "token" (the default): an amount of `tokenId`; "currency": an amount in the account's
 * currency — read from the account, never from the form — paid in any token it accepts.
 */
export const dashboardPaymentSchema = z.preprocess(
  (v) => (v && typeof v === "object" && !(v as { priceIn?: unknown }).priceIn ? { ...v, priceIn: "token" } : v),
  z.discriminatedUnion(
    "priceIn",
    [
      z.object({
        priceIn: z.literal("token"),
        tokenId: z.preprocess(blankToUndefined, z.coerce.number({ error: "Choose a token." }).int().positive({ error: "Choose a token." })),
        ...commonFields,
      }),
      z.object({ priceIn: z.literal("currency"), ...commonFields }),
    ],
    { error: "Choose what the price is in: a token or your account's currency." },
  ),
);
export type DashboardPaymentInput = z.input<typeof dashboardPaymentSchema>;
export type DashboardPaymentForm = z.output<typeof dashboardPaymentSchema>;

export interface DashboardPayment {
  sessionId: string;
  checkoutUrl: string;
  /** The token amount the payer is first asked for, and its token. */
  amount: string;
  token: string;
  expiresAt: string;
  /** A price in the account's currency ("25.00", "USD"); both null when priced in a token. */
  fiatAmount: string | null;
  currency: string | null;
}

/**
 * The API's schemas with the form's names for its text fields, so their messages read as the form
 * says them ("Order reference must be one line"), and the amount's problems in one sentence.
 */
/** The example a token amount's problems give. */
export const TOKEN_EXAMPLE = "10.5";

const formTexts = {
  description: displayTextSchema("Description", MAX_DESCRIPTION_LENGTH, true).optional(),
  orderId: displayTextSchema("Order reference", MAX_ORDER_ID_LENGTH, false).optional(),
};
export const formPaymentSchema = createPaymentSchema.extend(formTexts);
export const formFiatPaymentSchema = createFiatPaymentSchema.extend(formTexts);

/** The amount's format problem; "25 USD" typed as a token amount (`example` "10.5") is told where a currency price is chosen. */
export function amountFormat(example: string, amount: unknown): string {
  const base = `Enter an amount such as ${example}: digits and at most one dot, no commas or spaces.`;
  const currency =
    example === TOKEN_EXAMPLE && typeof amount === "string" ? /^\s*[\d.,]+\s*([A-Za-z]{3})\s*$/.exec(amount)?.[1] : undefined;
  return currency ? `${base} To price it in ${currency.toUpperCase()}, choose it under “Price in”.` : base;
}

/** `form` through one of the API's schemas, or the refusal naming each field's problem. */
export function parseForm<S extends z.ZodType>(
  schema: S,
  form: Record<string, unknown> & { amount: string },
  example: string,
): z.output<S> {
  const parsed = schema.safeParse(form);
  if (parsed.success) return parsed.data;
  const details: ErrorDetail[] = parsed.error.issues.map((issue) => {
    const path = String(issue.path[0] ?? "form");
    return { path, message: path === "amount" ? amountFormat(example, form.amount) : asSentence(issue.message) };
  });
  // biome-ignore lint/style/noNonNullAssertion: a failed zod parse reports at least one issue
  throw commonRefusal("VALIDATION_ERROR", "invalid-request", details[0]!.message, details);
}

export function fieldError(path: string, message: string, reason: PaymentReason): AppError {
  return paymentRefusal("VALIDATION_ERROR", reason, message, [{ path, message }]);
}

/** The refusals of either price about the plan, the domain and the amount's size; null for the others. */
export function sharedWords(reason: string | undefined, input: { domainId?: number }, example: string): AppError | null {
  switch (reason as PaymentReason | PlanReason | undefined) {
    case "no-plan":
      return refusal("NO_PACKAGE", "no-plan", "Choose a plan before creating payments.");
    case "plan-quota-used-up":
      return refusal(
        "NO_PACKAGE",
        "plan-quota-used-up",
        "This month's payments on your plan are used up. Upgrade your plan to create more.",
      );
    case "no-domain":
      return refusal("DOMAIN_NOT_WHITELISTED", "no-domain", "Add your shop's domain before creating payments.");
    case "origin-not-whitelisted":
    case "domain-not-yours":
      return input.domainId !== undefined
        ? fieldError("domainId", "Choose one of your domains.", reason as PaymentReason)
        : refusal("DOMAIN_NOT_WHITELISTED", reason as PaymentReason, "Add your shop's domain before creating payments.");
    case "amount-zero":
      return fieldError("amount", "The amount must be more than 0.", "amount-zero");
    case "amount-too-large":
      return fieldError("amount", "That amount is too large.", "amount-too-large");
    case "amount-malformed":
      return fieldError("amount", amountFormat(example, null), "amount-malformed");
    default:
      return null;
  }
}
