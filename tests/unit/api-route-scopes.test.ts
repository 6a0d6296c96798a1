import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCOPE_LABELS } from "@/components/api-keys/key-powers";

/** Every /api/v1 route file under app/api/v1, as a path from the repository root. */
function routes(dir = "app/api/v1"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routes(path);
    return entry.name === "route.ts" ? [path] : [];
  });
}

const MONEY_OUT = /\/(withdrawal|refund)/;

describe("/api/v1 routes declare their scope, and money-out routes never answer CORS", () => {
  const keyed = routes().filter((file) => readFileSync(file, "utf8").includes("withApiKey("));

  it("finds the routes", () => expect(keyed.length).toBeGreaterThanOrEqual(11));

  it.each(keyed)("%s", (file) => {
    const source = readFileSync(file, "utf8");
    const declared = [...source.matchAll(/withApiKey\(\{ scope: "([a-z:]+)", browser: (true|false) \}/g)];
    expect(declared.length, "every withApiKey names a scope and whether browsers may call it").toBe(source.split("withApiKey(").length - 1);
    if (MONEY_OUT.test(file)) {
      for (const [, scope, browser] of declared) {
        expect(browser).toBe("false");
        expect(["refunds", "withdrawals"]).toContain(scope);
      }
      expect(source).toContain("export const OPTIONS = noCorsPreflight();");
      expect(source).not.toContain("corsPreflight(");
    }
  });
});

describe("the key form's words for a scope", () => {
  it("payouts: names the route that needs it, not only the merchantWallet it also unlocks", () => {
    const sending = routes().filter((file) => /export const POST = withApiKey\(\{ scope: "payouts"/.test(readFileSync(file, "utf8")));
    expect(sending).toEqual(["app/api/v1/payouts/route.ts"]);
    expect(SCOPE_LABELS.payouts).toContain("POST /api/v1/payouts");
    expect(SCOPE_LABELS.payouts).toMatch(/^Send payouts/);
    expect(SCOPE_LABELS.payouts).toContain("merchantWallet");
  });
});
