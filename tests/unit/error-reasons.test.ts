/**
 * Refusals carry a reason (docs/design.md §22): the envelope adds `error.reason` only when one is set,
 * every page's words are keyed by real reasons, the payer pages have words for each reason they
 * show in every language they speak, and no page tells refusals apart by their message.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AppError, commonRefusal } from "@/lib/base/errors";
import { CLAIM_PROBLEM_OF_REASON, claimProblemOf } from "@/lib/domain/refunds/claim-problems";
import { refundRefusal } from "@/lib/domain/refunds/reasons";
import { REFUND_REFUSALS } from "@/lib/domain/refunds/refundable";
import { ADDRESS_WORDS, AMOUNT_WORDS, DASHBOARD_REFUSAL_WORDS, NOT_REFUNDABLE_WORDS } from "@/lib/web/dashboard/shared/refusal-words";
import { errorResponse } from "@/lib/web/http/envelope";
import { LOCALES } from "@/lib/web/i18n/locale";
import { claimProblemMessage, LINK_PAY_REASONS, linkRefusalMessage, PAYER_PAGE_MESSAGES } from "@/lib/web/i18n/refund-messages";
import { ALL_REASONS } from "@/lib/web/openapi/reasons";

describe("the error envelope", () => {
  it("carries the refusal's reason beside code and message", async () => {
    const response = errorResponse(
      refundRefusal("VALIDATION_ERROR", "refund-exceeds-refundable", "amount 5 is more than this payment can still refund (2)"),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      success: false,
      error: {
        code: "VALIDATION_ERROR",
        message: "amount 5 is more than this payment can still refund (2)",
        reason: "refund-exceeds-refundable",
      },
    });
  });

  it("is exactly as before for an error without a reason", async () => {
    const body = await errorResponse(new AppError("NOT_FOUND", "payment session not found", [{ path: "id", message: "x" }])).json();
    expect(body).toEqual({
      success: false,
      error: { code: "NOT_FOUND", message: "payment session not found", details: [{ path: "id", message: "x" }] },
    });
    expect(Object.keys(body.error)).not.toContain("reason");
  });

  it("keeps the headers of a refusal (Retry-After)", () => {
    const response = errorResponse(
      commonRefusal("RATE_LIMITED", "rate-limited", "too many requests; retry in 3 s", undefined, { "retry-after": "3" }),
    );
    expect(response.headers.get("retry-after")).toBe("3");
  });

  it("never shows an internal error's words or a reason", async () => {
    const body = await errorResponse(new Error("connection string postgres://secret")).json();
    expect(body).toEqual({ success: false, error: { code: "INTERNAL_ERROR", message: "internal error" } });
  });
});

describe("the reasons", () => {
  it("are stable kebab-case keys, each given by one module", () => {
    for (const reason of ALL_REASONS) expect(reason).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(new Set(ALL_REASONS).size).toBe(ALL_REASONS.length);
  });

  it("are what the dashboard's words are keyed by", () => {
    const known = new Set<string>(ALL_REASONS);
    const worded = [DASHBOARD_REFUSAL_WORDS, AMOUNT_WORDS, ADDRESS_WORDS, NOT_REFUNDABLE_WORDS].flatMap((words) => Object.keys(words));
    for (const reason of worded) expect(known, reason).toContain(reason);
    for (const [reason, words] of Object.entries(DASHBOARD_REFUSAL_WORDS)) expect(words?.trim(), reason).not.toBe("");
  });

  it("of a payment nothing can be refunded from each have the Refunds card's words", () => {
    for (const { reason } of Object.values(REFUND_REFUSALS)) expect(NOT_REFUNDABLE_WORDS[reason]).toMatch(/^[A-Z]/);
  });
});

describe("the payer pages speak every reason they show in each of their languages", () => {
  const payerReasons = [...LINK_PAY_REASONS, ...Object.keys(CLAIM_PROBLEM_OF_REASON)];

  it("names only real reasons", () => {
    for (const reason of payerReasons) expect(ALL_REASONS as readonly string[], reason).toContain(reason);
  });

  it.each(LOCALES)("%s: a refused Pay of a payment link, by reason", (locale) => {
    const t = PAYER_PAGE_MESSAGES[locale];
    for (const reason of LINK_PAY_REASONS) {
      const sentence = linkRefusalMessage({ reason }, t);
      expect(sentence.trim(), reason).not.toBe("");
      if (locale !== "en") expect(sentence, reason).not.toBe(linkRefusalMessage({ reason }, PAYER_PAGE_MESSAGES.en));
    }
    // The merchant's side (its package, its domain) is never told: the payer reads "not now".
    expect(linkRefusalMessage({ reason: "plan-quota-used-up" }, t)).toBe(t.linkUnavailable);
    expect(linkRefusalMessage(undefined, t)).toBe(t.linkUnavailable);
    // The route's own schema refusing the amount the payer typed.
    expect(linkRefusalMessage({ reason: "invalid-request", details: [{ path: "amount", message: "x" }] }, t)).toBe(t.linkAmountInvalid);
  });

  it.each(LOCALES)("%s: a refused refund claim, by reason", (locale) => {
    const t = PAYER_PAGE_MESSAGES[locale];
    for (const [reason, problem] of Object.entries(CLAIM_PROBLEM_OF_REASON)) {
      expect(claimProblemOf({ code: "VALIDATION_ERROR", reason }), reason).toBe(problem);
      const sentence = claimProblemMessage(claimProblemOf({ reason }), t);
      expect(sentence.trim(), reason).not.toBe("");
    }
  });
});

describe("no page tells refusals apart by their message", () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return files(path);
      return /\.tsx?$/.test(entry.name) ? [path] : [];
    });
  const MATCHING =
    /(error|result)\.(message|error)\s*(===|\.startsWith|\.includes|\.match|\.endsWith)|\.test\((error|result)\.(message|error)\)/;

  it.each(["app", "components", "lib/web/dashboard", "lib/web/http", "lib/web/i18n"])("%s", (root) => {
    const offending = files(root).filter((file) => MATCHING.test(readFileSync(file, "utf8")));
    expect(offending).toEqual([]);
  });
});
