import { describe, expect, it } from "vitest";
import { CLAIM_PROBLEMS, claimProblemDetail, claimProblemOf } from "@/lib/domain/refunds/claim-problems";
import { LOCALES } from "@/lib/web/i18n/locale";
import { claimProblemMessage, PAYER_PAGE_MESSAGES } from "@/lib/web/i18n/refund-messages";

describe("what the refund claim page tells the payer about a refused claim", () => {
  it.each([
    ["the merchant's wallet lacks tokens (502)", { code: "BLOCKCHAIN_ERROR", details: [claimProblemDetail("unavailable")] }, "unavailable"],
    ["the merchant's daily budget (429)", { code: "RATE_LIMITED", details: [claimProblemDetail("unavailable")] }, "unavailable"],
    ["too many claims from this address (429, no problem named)", { code: "RATE_LIMITED" }, "unavailable"],
    ["anything unexpected (500)", { code: "INTERNAL_ERROR" }, "unavailable"],
    ["no answer at all (the network)", null, "unavailable"],
    ["a gateway address", { code: "VALIDATION_ERROR", details: [claimProblemDetail("service-address")] }, "service-address"],
    ["the zero address", { code: "VALIDATION_ERROR", details: [claimProblemDetail("zero-address")] }, "zero-address"],
    [
      "a malformed address (the route's schema)",
      { code: "VALIDATION_ERROR", details: [{ path: "address", message: "bad" }] },
      "invalid-address",
    ],
    ["claimed or cancelled meanwhile", { code: "VALIDATION_ERROR", details: [claimProblemDetail("not-claimable")] }, "not-claimable"],
    ["an unknown refund", { code: "NOT_FOUND" }, "not-claimable"],
    [
      "a problem name the page does not know",
      { code: "BLOCKCHAIN_ERROR", details: [{ path: "problem", message: "wallet-empty" }] },
      "unavailable",
    ],
  ] as const)("%s", (_name, error, problem) => {
    expect(claimProblemOf(error as Parameters<typeof claimProblemOf>[0])).toBe(problem);
  });

  it.each(LOCALES)("%s: a sentence of the page's language for every problem, without the merchant's internals", (locale) => {
    const t = PAYER_PAGE_MESSAGES[locale];
    const sentences = CLAIM_PROBLEMS.map((problem) => claimProblemMessage(problem, t));
    for (const sentence of sentences) {
      expect(sentence.trim()).not.toBe("");
      expect(sentence).not.toMatch(/base units|RPC|gas|withdrawal wallet|BLOCKCHAIN_ERROR/i);
    }
    expect(new Set(sentences).size).toBe(sentences.length);
    expect(claimProblemMessage("unavailable", t)).toBe(t.claimUnavailable);
    if (locale !== "en") {
      for (const key of ["zeroAddress", "serviceAddress", "claimUnavailable"] as const)
        expect(t[key]).not.toBe(PAYER_PAGE_MESSAGES.en[key]);
    }
  });
});
