import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Chain access knows nothing of payments, withdrawals or HTTP: they call it, never the reverse. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /(?:import|export)[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const FORBIDDEN = [/^(\.\.\/)+(payments|withdrawals|http)(\/|$)/, /^@\/lib\/(payments|withdrawals|http)(\/|$)/, /^(\.\.\/)+\.\.\/app\//, /^@\/app\//];

describe("layering", () => {
  const files = sourceFiles("lib/chain");

  it("finds the chain sources", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)("%s imports nothing from lib/payments, lib/withdrawals or lib/http", (file) => {
    const imports = [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => m[1] ?? m[2]!);
    expect(imports.filter((spec) => FORBIDDEN.some((rule) => rule.test(spec)))).toEqual([]);
  });

  it("would catch such an import", () => {
    expect(FORBIDDEN.some((rule) => rule.test("../payments/record-transfers"))).toBe(true);
    expect(FORBIDDEN.some((rule) => rule.test("@/lib/withdrawals/send"))).toBe(true);
    expect(FORBIDDEN.some((rule) => rule.test("../http/handlers"))).toBe(true);
    expect(FORBIDDEN.some((rule) => rule.test("./forward-plan"))).toBe(false);
  });
});

/** Only recorded bytes reach a node: the ledger's broadcast is the one place a raw transaction is sent from. */
describe("one way out for signed transactions", () => {
  const SEND = /["']eth_sendRawTransaction["']\s*,\s*params/;
  const senders = ["lib", "app", "inngest", "scripts"].flatMap((dir) => sourceFiles(dir)).filter((file) => SEND.test(readFileSync(file, "utf8")));

  it("sends raw transactions from lib/ledger/broadcast.ts only", () => {
    expect(senders).toEqual([join("lib", "ledger", "broadcast.ts")]);
  });

  it("would catch another sender", () => {
    expect(SEND.test(`client.request({ method: "eth_sendRawTransaction", params: [raw] })`)).toBe(true);
  });
});
