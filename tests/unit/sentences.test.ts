import { describe, expect, it } from "vitest";
import { asSentence, besideItsField } from "@/lib/base/sentences";

describe("a dashboard field's refusal", () => {
  it("drops the API's field name, which the input's label already says, and reads as a sentence", () => {
    expect(besideItsField("redirectUrl", "redirectUrl must be an http(s) URL")).toBe("Must be an http(s) URL.");
    expect(besideItsField("amount", "amount 50 is more than this payment can still refund (12)")).toBe(
      "50 is more than this payment can still refund (12).",
    );
    expect(besideItsField("price.minimum", "minimum must be greater than 0")).toBe("Must be greater than 0.");
  });

  it("keeps a message that is already the form's words, or names another field", () => {
    expect(besideItsField("amount", "The amount must be more than 0.")).toBe("The amount must be more than 0.");
    expect(besideItsField("toAddress", "amount and toAddress cannot both be empty")).toBe("Amount and toAddress cannot both be empty.");
    expect(besideItsField("title", "titled wrongly")).toBe("Titled wrongly.");
  });

  it("makes a lib message a sentence once: a capital, and a stop unless it has one", () => {
    expect(asSentence("choose a package first")).toBe("Choose a package first.");
    expect(asSentence("Is it paid?")).toBe("Is it paid?");
    expect(asSentence(asSentence("already one."))).toBe("Already one.");
  });
});
