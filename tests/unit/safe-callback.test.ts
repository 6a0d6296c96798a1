import { describe, expect, it } from "vitest";
import { safeAuthRedirect, safeCallbackPath } from "@/lib/accounts/auth/safe-callback";

describe("safeCallbackPath: a path on this site, or the dashboard", () => {
  it.each([
    ["/dashboard/payments", "/dashboard/payments"],
    ["/dashboard/payments?status=pending#top", "/dashboard/payments?status=pending#top"],
    ["/dashboard/tokens", "/dashboard/tokens"],
    // Dot segments that stay on the site resolve to the page they name.
    ["/dashboard/x/../payments", "/dashboard/payments"],
    ["/dashboard/./tokens", "/dashboard/tokens"],
    // A filter's value may hold an encoded slash or backslash: only the path decides where the browser goes.
    ["/dashboard/payments?orderId=a%2Fb%5Cc", "/dashboard/payments?orderId=a%2Fb%5Cc"],
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
    // Dot segments: the string given starts with one "/", the path it resolves to with two.
    "/x/..//evil.example",
    "/x/../\\evil.example",
    "/./" + "/evil.example",
    "/x/%2e%2e//evil.example",
    "/x/%2E%2E//evil.example",
    "/x/.%2e//evil.example",
    "/a/b/../..//evil.example",
    "/x/..%2f/evil.example",
    "/x/../%2fevil.example",
    "/x/../%5cevil.example",
    "/dashboard/../../..//evil.example",
    "/x/..\t//evil.example",
    "https:evil.example",
    "https:/evil.example",
    "https://callback.invalid@evil.example/",
    "//callback.invalid@evil.example",
    "HTTPS://evil.example",
    "JavaScript:alert(1)",
    " /dashboard",
    "\\/evil.example",
    "data:text/html,<script>alert(1)</script>",
    "/%E0%A4%A", // not decodable
    "/dashboard?x=\t//evil.example",
    "/x/..//evil.example?next=/dashboard",
    "/login?callbackUrl=/dashboard",
    "/api/v1/payment/history",
    "",
    `/${"a".repeat(600)}`,
  ])("refuses %j", (value) => {
    expect(safeCallbackPath(value)).toBe("/dashboard");
  });

  it.each(["/x/..//evil.example", "/x/%2e%2e//evil.example", "/./" + "/evil.example"])(
    "the value returned for %j never starts with // or /\\",
    (value) => {
      const result = safeCallbackPath(value, "/fallback");
      expect(result).toBe("/fallback");
    },
  );

  it("refuses what is not a string", () => {
    expect(safeCallbackPath(["/dashboard/tokens"])).toBe("/dashboard");
    expect(safeCallbackPath(undefined, "/dashboard/payments")).toBe("/dashboard/payments");
  });
});

describe("safeAuthRedirect: next-auth's redirect stays on the site", () => {
  const base = "https://pay.example.com";
  it.each([
    ["/dashboard", `${base}/dashboard`],
    ["/login", `${base}/login`],
    [`${base}/dashboard/payments?x=1`, `${base}/dashboard/payments?x=1`],
  ])("keeps %s", (url, expected) => {
    expect(safeAuthRedirect(url, base)).toBe(expected);
  });

  it.each([
    "/x/..//evil.example",
    `${base}/x/..//evil.example`,
    `${base}/x/%2e%2e//evil.example`,
    "//evil.example",
    "https://evil.example/",
    "https://pay.example.com@evil.example/",
    "https://pay.example.com.evil.example/",
    "http://pay.example.com/dashboard",
    "javascript:alert(1)",
    "/\\evil.example",
  ])("turns %j into the site's root", (url) => {
    expect(safeAuthRedirect(url, base)).toBe(base);
  });
});
