import { describe, expect, it } from "vitest";
import { createPaymentSchema, displayTextSchema } from "@/lib/domain/payments/schemas";

/** The text rules of description (multi-line) and orderId (one line): what a payer reads is what was stored. */
const description = displayTextSchema("description", 500, true);
const orderId = displayTextSchema("orderId", 100, false);
const problem = (schema: typeof description, value: string) => schema.safeParse(value).error?.issues[0]?.message ?? null;

describe("multi-line text (description)", () => {
  it("stores every form of line break as \\n and keeps tabs", () => {
    expect(description.parse("2 × Flat white\r\n1 × Croissant\r\n")).toBe("2 × Flat white\n1 × Croissant");
    expect(description.parse("a\rb\u2028c\u2029d")).toBe("a\nb\nc\nd");
    expect(description.parse("Item\tQty\n  Tea\t2")).toBe("Item\tQty\n  Tea\t2");
  });

  it.each([
    ["a C0 control", "bell\u0007", "description must not contain control characters"],
    ["an escape sequence", "\u001b[31mred", "description must not contain control characters"],
    ["DEL", "a\u007fb", "description must not contain control characters"],
    ["a C1 control", "a\u0080b", "description must not contain control characters"],
    ["NEL (a C1 control, often a misread '…')", "a\u0085b", "description must not contain control characters"],
    ["U+009F", "a\u009fb", "description must not contain control characters"],
    ["a right-to-left override", "Pay \u202egnp.exe", "description must not contain bidirectional control characters"],
    ["a left-to-right embedding", "\u202aabc", "description must not contain bidirectional control characters"],
    ["a first-strong isolate", "a\u2068b\u2069", "description must not contain bidirectional control characters"],
  ])("refuses %s", (_, value, message) => {
    expect(problem(description, value)).toContain(message);
  });

  it("allows the direction marks Arabic and Hebrew text needs (LRM, RLM, ALM)", () => {
    expect(description.parse("שלום\u200e 42 \u200fمرحبا\u061c")).toBe("שלום\u200e 42 \u200fمرحبا\u061c");
  });
});

describe("one-line text (orderId)", () => {
  it.each([
    ["LF", "A\nB"],
    ["CRLF", "A\r\nB"],
    ["CR", "A\rB"],
    ["NEL", "A\u0085B"],
    ["a line separator", "A\u2028B"],
    ["a paragraph separator", "A\u2029B"],
  ])("refuses %s: it must be one line", (_, value) => {
    expect(problem(orderId, value)).toBe("orderId must be one line");
  });

  it("refuses a tab, C1 controls and bidi overrides and isolates, naming the field", () => {
    expect(problem(orderId, "ORD\t1")).toBe("orderId must not contain control characters");
    expect(problem(orderId, "ORD\u009b1")).toBe("orderId must not contain control characters");
    expect(problem(orderId, "ORD-\u202e01")).toMatch(/^orderId must not contain bidirectional control characters/);
    expect(problem(orderId, "ORD-\u20661\u2069")).toMatch(/^orderId must not contain bidirectional control characters/);
  });

  it("keeps an ordinary reference, trimmed, with the direction marks", () => {
    expect(orderId.parse("  ORD-10042 ")).toBe("ORD-10042");
    expect(orderId.parse("طلب\u200f-7")).toBe("طلب\u200f-7");
  });
});

it("payment/create applies them: a CRLF description is accepted as \\n", () => {
  const input = createPaymentSchema.parse({ tokenId: 1, amount: "1", description: "a\r\nb", orderId: "X-1" });
  expect(input).toMatchObject({ description: "a\nb", orderId: "X-1" });
});
