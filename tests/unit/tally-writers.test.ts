import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The history's counters and day totals (docs/design.md §25) stay exact only if every write of a
 * session or a withdrawal moves them in its transaction: every file that applies a session fact
 * ends with finishSessionChanges, the one statement that inserts sessions counts them, and every
 * insert or status write of a withdrawal calls tallyWithdrawalMove.
 */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const FILES = ["lib", "app", "inngest", "scripts"]
  .flatMap((dir) => sourceFiles(dir))
  .map((file) => ({ file, text: readFileSync(file, "utf8") }));
const filesWhere = (pattern: RegExp) => FILES.filter(({ text }) => pattern.test(text)).map(({ file }) => file);

describe("every write moves the history's counters", () => {
  it("ends every transaction that applies session facts with finishSessionChanges", () => {
    const appliers = filesWhere(/applySessionFact\(/);
    expect(appliers.length).toBeGreaterThan(1);
    expect(appliers.filter((file) => !/finishSessionChanges\(/.test(readFileSync(file, "utf8")))).toEqual([]);
  });

  it("inserts sessions only in insert-session.ts, which counts them in the same statement", () => {
    expect(filesWhere(/\.insert\(paymentSessions\)|insert into \$\{paymentSessions\}|insert into payment_sessions/i)).toEqual([
      join("lib", "domain", "payments", "insert-session.ts"),
    ]);
    expect(readFileSync(join("lib", "domain", "payments", "insert-session.ts"), "utf8")).toMatch(/insert into \$\{sessionCounts\}/);
  });

  it("counts every withdrawal where it is inserted and where its status is written", () => {
    const writers = filesWhere(/\.insert\(withdrawals\)|\.update\(withdrawals\)/);
    expect(writers.sort()).toEqual([
      join("lib", "domain", "transfers", "record-transfer.ts"),
      join("lib", "domain", "withdrawals", "withdrawal-records.ts"),
    ]);
    for (const file of writers) expect(readFileSync(file, "utf8")).toMatch(/tallyWithdrawalMove\(/);
  });
});
