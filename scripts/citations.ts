/**
 * One citation form in the code: a comment that points at a decision cites `docs/design.md §n`
 * (or a docs page by its path). `DESIGN.md`, `DESIGN §n`, a bare `design.md §n`, `issue N` and
 * `README "…"` are refused: the first three name a file that is not there, the last two a
 * tracker or a README section that moves — the reason belongs in the comment or the design record.
 * Migrations (drizzle/) are history and keep their words.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const FORBIDDEN: { pattern: RegExp; says: string }[] = [
  { pattern: /DESIGN\.md/, says: "cite docs/design.md §n (there is no DESIGN.md)" },
  { pattern: /\bDESIGN §/, says: "cite docs/design.md §n" },
  { pattern: /(?<!docs\/)\bdesign\.md §/, says: "cite docs/design.md §n, with its folder" },
  { pattern: /\bissues? #?\d+/i, says: "say why, or cite docs/design.md §n, instead of an issue number" },
  { pattern: /README "/, says: "cite the docs page (docs/<page>.md) instead of a README section" },
];

/** Each line of `text` that cites in another form, with what to write instead. */
export function citationProblems(text: string): { line: number; text: string; says: string }[] {
  return text.split("\n").flatMap((line, i) => {
    const hit = FORBIDDEN.find(({ pattern }) => pattern.test(line));
    return hit ? [{ line: i + 1, text: line.trim(), says: hit.says }] : [];
  });
}

/** The source folders whose comments cite (the docs themselves link with Markdown instead). */
export const CITING_FOLDERS = [
  "app",
  "components",
  "lib",
  "inngest",
  "scripts",
  "tests",
  "bench",
  "sdk/src",
  "sdk/test",
  "examples",
  "contracts",
  ".ci",
];
const SOURCE = /\.(ts|tsx|mts|mjs|js|sql|sol|sh)$|^run$/;
const SKIP = new Set(["node_modules", ".next", "generated", "out", "dist", "meta"]);

function sourceFiles(dir: string): string[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** Every citation in another form in the repository's source, as `path:line: text — what to write`. */
export function citationReport(root = "."): string[] {
  const self = join("scripts", "citations.ts");
  return CITING_FOLDERS.flatMap((folder) => sourceFiles(join(root, folder)))
    .filter((file) => !file.endsWith(self) && !file.endsWith(join("tests", "unit", "citations.test.ts")))
    .flatMap((file) => citationProblems(readFileSync(file, "utf8")).map((p) => `${file}:${p.line}: ${p.text} — ${p.says}`));
}
