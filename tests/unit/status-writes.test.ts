import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every write of a forward's, a batch's, a refund's, a withdrawal's, a payment session's or a ledger
 * row's status goes through its pure decider (lib/engine/forwarding/forward-state.ts,
 * lib/engine/forwarding/batched/batch-state.ts, lib/domain/refunds/refund-state.ts, lib/domain/withdrawals/withdrawal-state.ts,
 * lib/domain/payments/session-state.ts, lib/engine/ledger/decide.ts, lib/domain/payouts/payout-state.ts):
 * only the writers that apply their decisions may set it. A new `.update(forwards).set({ status: … })`
 * anywhere else fails here.
 */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** The `.set(…)` of each `.update(<table>)` in `text` (up to its `.where`, or the statement's end). */
function setsOf(text: string, table: string): string[] {
  const sets: string[] = [];
  const update = new RegExp(`\\.update\\(\\s*${table}\\s*\\)`, "g");
  for (const match of text.matchAll(update)) {
    const rest = text.slice(match.index + match[0].length);
    const end = rest.search(/\.where\(|;\s*\n/);
    sets.push(end < 0 ? rest : rest.slice(0, end));
  }
  return sets;
}

const writesStatus = (text: string, table: string) => setsOf(text, table).some((set) => /\bstatus\b/.test(set));
const FILES = ["lib", "app", "inngest", "scripts"].flatMap((dir) => sourceFiles(dir));

const RULES = [
  { table: "forwards", writers: [join("lib", "engine", "forwarding", "forward-records.ts")] },
  { table: "sweepBatches", writers: [join("lib", "engine", "forwarding", "batched", "tank-transactions.ts")] },
  { table: "refunds", writers: [join("lib", "domain", "refunds", "refund-records.ts")] },
  { table: "paymentSessions", writers: [join("lib", "domain", "payments", "session-records.ts")] },
  { table: "chainTransactions", writers: [join("lib", "engine", "ledger", "nonce-records.ts")] },
  { table: "withdrawals", writers: [join("lib", "domain", "withdrawals", "withdrawal-records.ts")] },
  { table: "payoutBatches", writers: [join("lib", "domain", "payouts", "payout-records.ts")] },
  { table: "payoutItems", writers: [join("lib", "domain", "payouts", "payout-records.ts")] },
  { table: "approvals", writers: [join("lib", "domain", "approval-requests", "approval-records.ts")] },
];
const REFUND_WRITER = join("lib", "domain", "refunds", "refund-records.ts");

describe("status writes go through the deciders", () => {
  describe.each(RULES)("$table", ({ table, writers }) => {
    it("is written by its writers only", () => {
      expect(FILES.filter((file) => writesStatus(readFileSync(file, "utf8"), table))).toEqual([]);
    });

    it("has writers that exist and use the decider's change", () => {
      for (const writer of writers) expect(readFileSync(writer, "utf8")).toMatch(new RegExp(`\\.update\\(${table}\\)`));
    });
  });

  it("creates forwards without a status of their own (pending by default)", () => {
    const inserts = FILES.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\.insert\(forwards\)\s*\.values\(\{([^}]*)\}/g)].map((m) => [file, m[1] ?? ""]),
    );
    expect(inserts.length).toBeGreaterThan(0);
    expect(inserts.filter(([, values]) => /\bstatus\b/.test(values ?? ""))).toEqual([]);
  });

  it("creates refunds only where the decider's first state is applied", () => {
    const inserting = FILES.filter((file) => /\.insert\(\s*refunds\s*\)/.test(readFileSync(file, "utf8")));
    expect(inserting).toEqual([REFUND_WRITER]);
  });

  it("creates payment sessions without a status of their own (pending by default)", () => {
    expect(FILES.filter((file) => /\.insert\(\s*paymentSessions\s*\)/.test(readFileSync(file, "utf8")))).toEqual([]);
    expect(readFileSync(join("lib", "domain", "payments", "insert-session.ts"), "utf8")).not.toMatch(/paymentSessions\.status/);
  });

  it("records ledger rows only in lib/engine/ledger/record.ts, without a status of their own (pending by default)", () => {
    const inserting = FILES.filter((file) => /\.insert\(\s*chainTransactions\s*\)/.test(readFileSync(file, "utf8")));
    expect(inserting).toEqual([join("lib", "engine", "ledger", "record.ts")]);
    const values = readFileSync(join("lib", "engine", "ledger", "record.ts"), "utf8").match(
      /\.insert\(chainTransactions\)\s*\.values\(\{([^}]*)\}/,
    );
    expect(values?.[1]).toBeDefined();
    expect(values?.[1]).not.toMatch(/\bstatus\b/);
  });

  it("creates withdrawals as payouts (submitted by default), or awaiting approval in their writer only", () => {
    const inserts = FILES.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\.insert\(\s*withdrawals\s*\)\s*\.values\(\{([^}]*)\}/g)].map((m) => [file, m[1] ?? ""]),
    );
    const payouts = join("lib", "domain", "transfers", "record-transfer.ts");
    const writer = join("lib", "domain", "withdrawals", "withdrawal-records.ts");
    expect(inserts.map(([file]) => file).sort()).toEqual([payouts, writer]);
    expect(inserts.filter(([file, values]) => file === payouts && /\bstatus\b/.test(values ?? ""))).toEqual([]);
    expect(inserts.find(([file]) => file === writer)?.[1]).toMatch(/status: "awaiting_approval"/);
  });

  it("would catch a status written elsewhere", () => {
    expect(writesStatus(`await tx.update(forwards).set({ status: "held", heldReason: r }).where(eq(forwards.id, id));`, "forwards")).toBe(
      true,
    );
    expect(writesStatus(`await tx.update(refunds).set({ status: "cancelled" }).where(eq(refunds.id, id));`, "refunds")).toBe(true);
    expect(
      writesStatus(
        `await tx\n  .update(paymentSessions)\n  .set({ status: "expired", expiredAt: now })\n  .where(eq(paymentSessions.status, "pending"))`,
        "paymentSessions",
      ),
    ).toBe(true);
    expect(writesStatus(`await tx\n  .update(withdrawals)\n  .set({ status: "failed", failureReason })\n  .where(x);`, "withdrawals")).toBe(
      true,
    );
    expect(writesStatus(`await db\n  .update(sweepBatches)\n  .set({ status, gasUsed })\n  .where(x);`, "sweepBatches")).toBe(true);
    expect(writesStatus(`await db.update(forwards).set({ lockedUntil: null }).where(eq(forwards.id, id));`, "forwards")).toBe(false);
    expect(writesStatus(`await db.update(forwards).set({ nextAttemptAt: at }).where(eq(forwards.status, "batched"));`, "forwards")).toBe(
      false,
    );
  });
});
