/**
 * A one-off payment made by the merchant on the dashboard (no API key): the same rules as
 * POST /api/v1/payment/create — the same schema, the same domain, plan and quota checks in
 * the same single statement — with its refusals in the merchant's words, each tied to the field
 * or the page that fixes it. A refusal writes nothing (no session, no quota used).
 */
import { z } from "zod";
import type { Db } from "../db";
import { AppError, type ErrorDetail } from "../errors";
import { createPaymentSession } from "../payments/create-session";
import { createPaymentSchema } from "../payments/schemas";
import { asSentence } from "../sentences";
import { findOwnToken } from "../tokens/find-own-token";

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

/** The API schema's messages ("amount must be …") as sentences for a form. */
const FIELD_MESSAGES: Record<string, (message: string) => string> = {
  amount: (m) =>
    /decimal string|too long/.test(m) ? "Enter an amount such as 10.5: digits and at most one dot, no commas or spaces." : asSentence(m),
  description: (m) => asSentence(m),
  orderId: (m) => asSentence(m.replace(/^orderId/, "Order reference")),
};

export async function createDashboardPayment(
  db: Db,
  userId: number,
  form: z.output<typeof dashboardPaymentSchema>,
): Promise<DashboardPayment> {
  const parsed = createPaymentSchema.safeParse(form);
  if (!parsed.success) {
    const details: ErrorDetail[] = parsed.error.issues.map((issue) => {
      const path = String(issue.path[0] ?? "form");
      return { path, message: (FIELD_MESSAGES[path] ?? asSentence)(issue.message) };
    });
    // biome-ignore lint/style/noNonNullAssertion: a failed zod parse reports at least one issue
    throw new AppError("VALIDATION_ERROR", details[0]!.message, details);
  }
  const token = await findOwnToken(db, userId, parsed.data.tokenId);
  if (!token) throw fieldError("tokenId", "Choose one of your registered tokens.");
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
    throw inMerchantWords(error, parsed.data, token);
  }
}

function fieldError(path: string, message: string): AppError {
  return new AppError("VALIDATION_ERROR", message, [{ path, message }]);
}

/** The create's refusals (written for API clients) as what the merchant should do next. */
function inMerchantWords(
  error: unknown,
  input: { amount: string; domainId?: number },
  token: { symbol: string; decimals: number; network: string },
): unknown {
  if (!(error instanceof AppError)) return error;
  switch (error.code) {
    case "NO_PACKAGE":
      return new AppError(
        "NO_PACKAGE",
        error.message.includes("used up")
          ? "This month's payments on your plan are used up. Upgrade your plan to create more."
          : "Choose a plan before creating payments.",
      );
    case "DOMAIN_NOT_WHITELISTED":
      return input.domainId !== undefined && !error.message.startsWith("whitelist a domain")
        ? fieldError("domainId", "Choose one of your domains.")
        : new AppError("DOMAIN_NOT_WHITELISTED", "Add your shop's domain before creating payments.");
    case "VALIDATION_ERROR":
      if (/^amount/.test(error.message)) {
        if (/decimal places/.test(error.message))
          return fieldError(
            "amount",
            `${token.symbol} has ${token.decimals} decimals: use at most ${token.decimals} digits after the dot.`,
          );
        if (/greater than 0/.test(error.message)) return fieldError("amount", "The amount must be more than 0.");
        if (/too large/.test(error.message)) return fieldError("amount", "That amount is too large.");
        const least = /^amount must be at least (\S+) /.exec(error.message)?.[1];
        if (least) return fieldError("amount", `Enter at least ${least} ${token.symbol}: the smallest payment this gateway takes in it.`);
        return fieldError("amount", FIELD_MESSAGES.amount?.(error.message) ?? asSentence(error.message));
      }
      if (/no longer accepts|does not serve/.test(error.message))
        return fieldError("tokenId", `${token.symbol} cannot take payments on this gateway any more. Choose another token.`);
      return new AppError("VALIDATION_ERROR", asSentence(error.message));
    default:
      return error;
  }
}
