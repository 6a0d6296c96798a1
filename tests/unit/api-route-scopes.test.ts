import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

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
