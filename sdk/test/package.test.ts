/**
 * `npm pack` makes a tarball a shop can install: it builds dist/, ships the types and nothing of
 * the sources or tests, and an installed copy imports and type-checks from a fresh project.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const sdk = join(__dirname, "..");
const npm = (args: string[], cwd: string) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

describe("npm pack", () => {
  it("packs, installs into a fresh project, imports and type-checks", () => {
    const folder = mkdtempSync(join(tmpdir(), "bscpay-sdk-pack-"));
    const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", folder], sdk)) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(["package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/react/index.js"]));
    expect(files.filter((f) => f.startsWith("src/") || f.startsWith("test/") || f.startsWith("node_modules/"))).toEqual([]);

    const shop = join(folder, "shop");
    execFileSync("mkdir", ["-p", shop]);
    writeFileSync(join(shop, "package.json"), JSON.stringify({ name: "shop", private: true, type: "module" }));
    npm(["install", "--offline", "--no-audit", "--no-fund", join(folder, packed[0]!.filename)], shop);
    expect(readdirSync(join(shop, "node_modules/@bsc-pay/sdk/dist"))).toContain("webhooks.js");

    const script = `
      import { createClient, verifyWebhook, BscPayApiError, BscPayNetworkError, Paginator } from "@bsc-pay/sdk";
      import { verifyWebhook as fromSubpath } from "@bsc-pay/sdk/webhooks";
      const client = createClient({ apiKey: "bscp_live_x", baseUrl: "http://127.0.0.1:9" });
      console.log(JSON.stringify([typeof client.payments.create, typeof client.payouts.history, typeof verifyWebhook,
        fromSubpath === verifyWebhook, new BscPayApiError({ status: 400, code: "VALIDATION_ERROR", message: "m" }) instanceof Error,
        typeof BscPayNetworkError, typeof Paginator]));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: shop, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual(["function", "function", "function", true, true, "function", "function"]);

    // The React entry is a client module (Next.js needs the directive at its top).
    expect(readFileSync(join(shop, "node_modules/@bsc-pay/sdk/dist/react/index.js"), "utf8")).toMatch(/^"use client";/);
    // React and its types as a React shop has them (linked from this repository's install).
    for (const name of ["react", "@types/react", "csstype"]) {
      mkdirSync(dirname(join(shop, "node_modules", name)), { recursive: true });
      symlinkSync(join(process.cwd(), "node_modules", name), join(shop, "node_modules", name));
    }
    writeFileSync(
      join(shop, "button.tsx"),
      `import { PayButton, type CheckoutOutcome } from "@bsc-pay/sdk/react";
       export const Pay = () => (
         <PayButton baseUrl="https://pay.example.com" createSession={async () => "id"} onOutcome={(o: CheckoutOutcome) => o.status} />
       );`,
    );

    // A TypeScript shop gets the types: a wrong field is an error, the event union narrows.
    writeFileSync(
      join(shop, "shop.ts"),
      `import { createClient, type WebhookEvent } from "@bsc-pay/sdk";
       const client = createClient({ apiKey: "k", baseUrl: "http://x" });
       export async function order() {
         const session = await client.payments.create({ tokenId: 1, amount: "2" });
         const id: string = session.sessionId;
         return id;
       }
       export function handle(event: WebhookEvent): string | null {
         if (event.type === "payment.completed") return event.data.sessionId;
         return null;
       }
       // @ts-expect-error amount is a decimal string, never a number
       client.payments.create({ tokenId: 1, amount: 2 });`,
    );
    writeFileSync(
      join(shop, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ["shop.ts"],
      }),
    );
    execFileSync(process.execPath, [join(sdk, "node_modules/typescript/bin/tsc"), "-p", shop], { encoding: "utf8" });
  }, 120_000);
});
