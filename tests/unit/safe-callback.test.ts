import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "@/lib/auth/safe-callback";

describe("safeCallbackPath: a path on this site, or the dashboard", () => {
  it.each([
    ["/dashboard/payments", "/dashboard/payments"],
    ["/dashboard/payments?status=pending#top", "/dashboard/payments?status=pending#top"],
    ["/dashboard/tokens", "/dashboard/tokens"],
  ])("keeps %s", (value, expected) => {
    expect(safeCallbackPath(value)).toBe(expected);
  });

  it.each([
    // The bypass found from outside: URL parsing drops the tab, leaving "//evil.example".
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/%09/evil.example",
    "/%0a/evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/%5Cevil.example",
    "/%2F/evil.example",
    "/%2f%2fevil.example",
    "https://evil.example/dashboard",
    "javascript:alert(1)",
    "/%E0%A4%A", // not decodable
    "/login?callbackUrl=/dashboard",
    "/api/v1/payment/history",
    "",
    `/${"a".repeat(600)}`,
  ])("refuses %j", (value) => {
    expect(safeCallbackPath(value)).toBe("/dashboard");
  });

  it("refuses what is not a string", () => {
    expect(safeCallbackPath(["/dashboard/tokens"])).toBe("/dashboard");
    expect(safeCallbackPath(undefined, "/dashboard/payments")).toBe("/dashboard/payments");
  });
});
