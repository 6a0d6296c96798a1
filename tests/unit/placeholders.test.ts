import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A placeholder never looks like a value already filled in ("10.5", "INV-2026-014", "50"): an
 * example says "e.g.", an empty field's default says "Default:", and a format is written as one
 * ("0x…", "YYYY-MM-DD"); the shared Input draws every placeholder lighter than typed text.
 */

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(path);
    return entry.name.endsWith(".tsx") ? [path] : [];
  });
}

/** Formats and descriptions of what to type, not values. */
const FORMATS = new Set(["0x…", "YYYY-MM-DD", "No limit", "Order ref, payment id, 0x… hash or address, key:value"]);
/**
 * The New payment and New link forms are reworded with their own issue-48 change (their
 * placeholders included); remove them from here once it has landed.
 */
const ELSEWHERE = new Set(["components/payments/create-payment-form.tsx", "components/payment-links/link-form.tsx"]);

const placeholders = ["components", "app"]
  .flatMap((root) => tsxFiles(root))
  .filter((file) => !ELSEWHERE.has(file))
  .flatMap((file) => {
    const source = readFileSync(file, "utf8");
    const literal = [...source.matchAll(/placeholder="([^"]*)"/g)].map((m) => m[1] ?? "");
    const template = [...source.matchAll(/placeholder=\{`([^`]*)`\}/g)].map((m) => m[1] ?? "");
    const constant = [...source.matchAll(/placeholder=\{([A-Z_]+)\}/g)].map(
      (m) => source.match(new RegExp(`const ${m[1]} = "([^"]*)"`))?.[1] ?? `(unresolved ${m[1]})`,
    );
    const computed = [...source.matchAll(/placeholder=\{(?![`A-Z])([^}]*)\}/g)].map((m) => `(computed ${m[1]})`);
    return [...literal, ...template, ...constant, ...computed].map((text) => ({ file, text }));
  });

describe("placeholders", () => {
  it("are found (the scan cannot pass by finding none)", () => {
    expect(placeholders.length).toBeGreaterThan(10);
  });

  it.each(placeholders)("$file: '$text' reads as an example, a default or a format", ({ text }) => {
    expect(text.startsWith("e.g.") || text.startsWith("Default: ") || FORMATS.has(text), text).toBe(true);
  });

  it("are lighter than typed text in the shared input", () => {
    expect(readFileSync("components/ui/input.tsx", "utf8")).toMatch(/placeholder:text-muted-foreground\/60/);
  });
});
