/**
 * Who can approve money out (lib/domain/approvals/approvers.ts): members whose role holds `approve`
 * with two-factor on; the Approvals page warns before a threshold nobody could approve is saved.
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/db/rows";
import { accountMembers, type MemberRole, users } from "@/lib/db/schema";
import { accountApprovers, someoneCanApprove } from "@/lib/domain/approvals/approvers";
import { approverWarning } from "@/lib/web/dashboard/approvals/approval-words";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();
let counter = 0;

async function newUser(twoFactor: boolean) {
  const email = `approver${++counter}-${Date.now()}@approvers.test`;
  const [row] = rowsOf<{ id: number }>(
    await db().execute(sql`insert into users (email, password_hash) values (${email}, 'x') returning id`),
  );
  if (twoFactor) await db().update(users).set({ totpEnabledAt: new Date() }).where(eq(users.id, row!.id));
  return { userId: row!.id, email };
}

async function join(accountId: number, role: MemberRole, twoFactor: boolean) {
  const user = await newUser(twoFactor);
  await db().insert(accountMembers).values({ accountId, userId: user.userId, role });
  return user;
}

describe("accountApprovers", () => {
  it("a lone owner without two-factor: nobody can approve, and the page says how to change that", async () => {
    const owner = await newUser(false);
    const approvers = await accountApprovers(db(), owner.userId);
    expect(approvers).toEqual({ eligible: [], withoutTwoFactor: [owner] });
    expect(someoneCanApprove(approvers, owner.userId)).toBe(false);
    expect(someoneCanApprove(approvers, null)).toBe(false);
    expect(approverWarning(approvers, owner.userId)).toEqual({
      text: expect.stringMatching(/^Nobody can approve yet: approving needs an owner, admin or finance member with two-factor/),
      link: { href: "/dashboard/settings", label: "Turn on two-factor →" },
    });
  });

  it("counts only roles that hold approve, with two-factor on; one approver cannot approve their own", async () => {
    const owner = await newUser(true);
    await join(owner.userId, "developer", true);
    await join(owner.userId, "viewer", true);
    const finance = await join(owner.userId, "finance", false);
    let approvers = await accountApprovers(db(), owner.userId);
    expect(approvers).toEqual({ eligible: [owner], withoutTwoFactor: [finance] });
    expect(someoneCanApprove(approvers, finance.userId)).toBe(true);
    expect(someoneCanApprove(approvers, owner.userId)).toBe(false);
    expect(approverWarning(approvers, owner.userId)?.text).toMatch(/^Only you can approve/);
    expect(approverWarning(approvers, finance.userId)).toEqual({
      text: `Only ${owner.email} can approve, so what they ask for themselves would wait until it expires after 72 h.`,
      link: { href: "/dashboard/settings", label: "Turn on two-factor →" },
    });
    const admin = await join(owner.userId, "admin", true);
    approvers = await accountApprovers(db(), owner.userId);
    expect(approvers.eligible).toEqual([owner, admin]);
    expect(someoneCanApprove(approvers, owner.userId)).toBe(true);
    expect(approverWarning(approvers, owner.userId)).toBeNull();
  });

  it("reads one account only", async () => {
    const a = await newUser(false);
    const b = await newUser(true);
    expect((await accountApprovers(db(), a.userId)).eligible).toEqual([]);
    expect((await accountApprovers(db(), b.userId)).eligible).toEqual([b]);
  });
});
