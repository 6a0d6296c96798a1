/**
 * The SDK's types cannot drift from the API: the committed OpenAPI document is what the code
 * builds now, and the committed types are what openapi-typescript makes of it. `npm run
 * sdk:generate` rewrites both; .ci/run regenerates them and fails on a diff too.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/web/openapi/document";

const committed = (path: string) => readFileSync(join(__dirname, "..", path), "utf8");

describe("sdk/openapi.json and sdk/src/generated", () => {
  it("the committed document is the one the code builds (run `npm run sdk:generate`)", () => {
    expect(committed("openapi.json")).toBe(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
  });

  it("the committed types are openapi-typescript's output for it (run `npm run sdk:generate`)", () => {
    const folder = mkdtempSync(join(tmpdir(), "bscpay-sdk-types-"));
    const input = join(folder, "openapi.json");
    const output = join(folder, "openapi.ts");
    writeFileSync(input, committed("openapi.json"));
    const sdk = join(__dirname, "..");
    execFileSync(process.execPath, [join(sdk, "node_modules/openapi-typescript/bin/cli.js"), input, "--output", output], { stdio: "pipe" });
    execFileSync(process.execPath, [join(sdk, "scripts/header.mjs"), output]);
    expect(readFileSync(output, "utf8")).toBe(committed("src/generated/openapi.ts"));
  }, 60_000);
});
