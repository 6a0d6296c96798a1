/**
 * What a dashboard server action answers when its body throws (runAction, server-action.ts): a
 * refusal in the dashboard's words with its stable reason, field errors beside their fields, and
 * for anything else one sentence of ours — never a stack trace, never a node's or viem's text
 * (refusal-words.ts: a chain failure reads as the page's words).
 * Without Next.js imports, so a test can hold a real refusal to it.
 */

import { AppError } from "../../../base/errors";
import { log } from "../../../base/log";
import { besideItsField } from "../../../base/sentences";
import { dashboardRefusalWords } from "./refusal-words";

/** A failed action: a message, and per-field errors a form can show next to its inputs, with the refusal's `reason` (docs/design.md §22). */
export type ActionFailure = { ok: false; error: string; code?: string; reason?: string; fieldErrors?: Record<string, string> };

export function actionRefusal(error: unknown): ActionFailure {
  if (error instanceof AppError) {
    const fieldErrors = error.details?.length
      ? Object.fromEntries(error.details.map((d) => [d.path ?? "form", besideItsField(d.path ?? "form", d.message)]))
      : undefined;
    const reason = error.reason ? { reason: error.reason } : {};
    return { ok: false, code: error.code, ...reason, error: dashboardRefusalWords(error), fieldErrors };
  }
  log.error({ err: error }, "dashboard action failed");
  return { ok: false, code: "INTERNAL_ERROR", error: "Something went wrong on our side. Try again." };
}
