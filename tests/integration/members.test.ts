import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listAccounts } from "@/app/api/user/accounts/route";
import { POST as addDomain, GET as listDomains } from "@/app/api/user/domains/route";
import { DELETE as revokeInvite } from "@/app/api/user/invitations/[id]/route";
import { POST as acceptInvite } from "@/app/api/user/invitations/accept/route";
import { POST as invite, GET as listInvites } from "@/app/api/user/invitations/route";
import { PATCH as changeRole, DELETE as removeMember } from "@/app/api/user/members/[userId]/route";
import { GET as listMembers } from "@/app/api/user/members/route";
import { POST as transfer } from "@/app/api/user/members/transfer-ownership/route";
import { INVITATION_TTL_MS } from "@/lib/accounts/members/invitations";
import { totpCode, totpStep } from "@/lib/accounts/users/totp";
import { confirmEnrolment, startEnrolment } from "@/lib/accounts/users/two-factor";
import type { DatabaseHandle } from "@/lib/db/client";
import { migrate, readMigrations } from "@/lib/db/migrate";
import { rowsOf } from "@/lib/db/rows";
import { accountInvitations, accountMembers, auditEvents, users } from "@/lib/db/schema";
import { signUp } from "../helpers/accounts";
import { useConfig } from "../helpers/config";
import { createTestDatabase, useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";
import { withTwoFactor } from "../helpers/members";

/** Accounts with members: invitations, roles, ownership, the switcher's list, and the migration of single-user accounts. */
const db = useTestDatabase();
const config = () => useConfig({ NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
const inAccount = (auth: Record<string, string>, accountId: number) => ({ ...auth, "x-account-id": String(accountId) });

async function invited(owner: { auth: Record<string, string> }, role: string) {
  const res = await call(invite, { method: "POST", headers: owner.auth, body: { role, note: "Ana" } });
  expect(res.status).toBe(201);
  return res.body.data as { invitationId: number; token: string; url: string; role: string; status: string };
}

describe("invitations", () => {
  it("a link shown once joins a user with its role, once; the hash alone is kept", async () => {
    config();
    const owner = await signUp();
    const link = await invited(owner, "finance");
    expect(link).toMatchObject({ role: "finance", status: "pending", url: `http://localhost:3000/invite/${link.token}` });
    const [row] = await db().select().from(accountInvitations).where(eq(accountInvitations.id, link.invitationId));
    expect(JSON.stringify(row)).not.toContain(link.token);
    const listed = await call(listInvites, { headers: owner.auth });
    expect(JSON.stringify(listed.body)).not.toContain(link.token);

    const staff = await signUp();
    const joined = await call(acceptInvite, { method: "POST", headers: staff.auth, body: { token: link.token } });
    expect(joined.body.data).toEqual({ accountId: owner.userId, role: "finance" });
    const again = await call(acceptInvite, { method: "POST", headers: (await signUp()).auth, body: { token: link.token } });
    expect(again.body.error.reason).toBe("invitation-used");

    const accounts = await call(listAccounts, { headers: staff.auth });
    expect(accounts.body.data.items).toEqual([
      { accountId: staff.userId, label: staff.email, role: "owner" },
      { accountId: owner.userId, label: owner.email, role: "finance" },
    ]);
    const members = await call(listMembers, { headers: inAccount(staff.auth, owner.userId) });
    expect(members.body.data.items.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, "owner"],
      [staff.email, "finance"],
    ]);
  });

  it("refuses a revoked, an expired and an unknown link, and a member joining twice; nothing is added", async () => {
    config();
    const owner = await signUp();
    const staff = await signUp();
    const revoked = await invited(owner, "viewer");
    await call(revokeInvite, { method: "DELETE", headers: owner.auth, params: { id: String(revoked.invitationId) } });
    const expired = await invited(owner, "viewer");
    await db()
      .update(accountInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountInvitations.id, expired.invitationId));
    const answers = await Promise.all(
      [revoked.token, expired.token, "no-such-token", ""].map((token) =>
        call(acceptInvite, { method: "POST", headers: staff.auth, body: { token } }),
      ),
    );
    expect(answers.map((a) => a.body.error.reason ?? a.body.error.code)).toEqual([
      "invitation-invalid",
      "invitation-expired",
      "invitation-invalid",
      "invalid-request",
    ]);
    const used = await invited(owner, "viewer");
    await call(acceptInvite, { method: "POST", headers: staff.auth, body: { token: used.token } });
    const twice = await invited(owner, "admin");
    expect((await call(acceptInvite, { method: "POST", headers: staff.auth, body: { token: twice.token } })).body.error.reason).toBe(
      "already-a-member",
    );
    expect((await db().select().from(accountMembers).where(eq(accountMembers.accountId, owner.userId))).length).toBe(2);
    expect(INVITATION_TTL_MS).toBe(72 * 3600 * 1000);
  });

  it("refuses an owner role and bad input without recording anything", async () => {
    config();
    const owner = await signUp();
    for (const body of [{ role: "owner" }, { role: "root" }, {}, { role: "viewer", note: "x".repeat(201) }]) {
      const res = await call(invite, { method: "POST", headers: owner.auth, body });
      expect(res.status).toBe(400);
    }
    expect(await db().select().from(accountInvitations).where(eq(accountInvitations.accountId, owner.userId))).toEqual([]);
  });
});

describe("members", () => {
  it("the owner changes roles and removes members, never themself; ownership moves only to a member with two-factor", async () => {
    config();
    const owner = await signUp();
    const staff = await signUp();
    await call(acceptInvite, { method: "POST", headers: staff.auth, body: { token: (await invited(owner, "viewer")).token } });
    const promoted = await call(changeRole, {
      method: "PATCH",
      headers: owner.auth,
      params: { userId: String(staff.userId) },
      body: { role: "admin" },
    });
    expect(promoted.body.data).toMatchObject({ userId: staff.userId, role: "admin" });
    const self = await call(changeRole, {
      method: "PATCH",
      headers: owner.auth,
      params: { userId: String(owner.userId) },
      body: { role: "viewer" },
    });
    expect(self.body.error.reason).toBe("owner-is-fixed");
    expect(
      (await call(removeMember, { method: "DELETE", headers: owner.auth, params: { userId: String(owner.userId) } })).body.error.reason,
    ).toBe("owner-is-fixed");
    const asOwner = await call(changeRole, {
      method: "PATCH",
      headers: owner.auth,
      params: { userId: String(staff.userId) },
      body: { role: "owner" },
    });
    expect(asOwner.status).toBe(400);
    const stranger = await signUp();
    expect((await call(removeMember, { method: "DELETE", headers: owner.auth, params: { userId: String(stranger.userId) } })).status).toBe(
      404,
    );

    const noFactor = await call(transfer, { method: "POST", headers: owner.auth, body: { userId: staff.userId } });
    expect(noFactor.body.error.reason).toBe("new-owner-needs-two-factor");
    const [staffRow] = await db().select().from(users).where(eq(users.id, staff.userId));
    const { secret } = await startEnrolment(db(), staffRow!);
    const [pending] = await db().select().from(users).where(eq(users.id, staff.userId));
    await confirmEnrolment(db(), pending!, totpCode(secret, totpStep()), staff.password);
    const moved = await call(transfer, { method: "POST", headers: owner.auth, body: { userId: staff.userId } });
    expect(moved.status).toBe(200);
    expect(moved.body.data.items.map((m: { userId: number; role: string }) => [m.userId, m.role])).toEqual([
      [owner.userId, "admin"],
      [staff.userId, "owner"],
    ]);
    // The old owner is an admin now: members are no longer theirs to change.
    const after = await call(changeRole, {
      method: "PATCH",
      headers: owner.auth,
      params: { userId: String(staff.userId) },
      body: { role: "viewer" },
    });
    expect(after.body.error).toMatchObject({ code: "FORBIDDEN", reason: "role-forbids" });
  });

  it("revokes the open invitations a member made when they hand the ownership over or are removed, audited; others' stay", async () => {
    config();
    const owner = await signUp();
    const heir = await signUp();
    await call(acceptInvite, { method: "POST", headers: heir.auth, body: { token: (await invited(owner, "admin")).token } });
    const mine = [await invited(owner, "viewer"), await invited(owner, "finance")];
    const used = await invited(owner, "developer");
    await call(acceptInvite, { method: "POST", headers: (await signUp()).auth, body: { token: used.token } });
    const heirAuth = inAccount((await withTwoFactor(heir.userId, heir.password)).own, owner.userId);
    const moved = await call(transfer, { method: "POST", headers: owner.auth, body: { userId: heir.userId } });
    expect(moved.status).toBe(200);
    const listed = (await call(listInvites, { headers: heirAuth })).body.data.items as { invitationId: number; status: string }[];
    for (const link of mine) expect(listed.find((i) => i.invitationId === link.invitationId)?.status).toBe("revoked");
    expect(listed.find((i) => i.invitationId === used.invitationId)?.status).toBe("accepted"); // used already: left as it is
    const late = await call(acceptInvite, { method: "POST", headers: (await signUp()).auth, body: { token: mine[0]!.token } });
    expect(late.body.error.reason).toBe("invitation-invalid");
    const audited = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.accountId, owner.userId), eq(auditEvents.action, "invitation.revoked")));
    expect(audited.map((a) => a.after)).toEqual([{ reason: "ownership-handed-over" }, { reason: "ownership-handed-over" }]);

    // The new owner's own link stays when the old owner (now admin) leaves; one the old owner still had goes.
    const heirs = await call(invite, { method: "POST", headers: heirAuth, body: { role: "viewer" } });
    const [stray] = await db()
      .insert(accountInvitations)
      .values({
        accountId: owner.userId,
        role: "viewer",
        tokenHash: "0".repeat(64),
        invitedBy: owner.userId,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      })
      .returning();
    const removed = await call(removeMember, { method: "DELETE", headers: heirAuth, params: { userId: String(owner.userId) } });
    expect(removed.body.data).toMatchObject({ userId: owner.userId, role: "admin", invitationsRevoked: 1 });
    const after = (await call(listInvites, { headers: heirAuth })).body.data.items as { invitationId: number; status: string }[];
    expect(after.find((i) => i.invitationId === stray!.id)?.status).toBe("revoked");
    expect(after.find((i) => i.invitationId === heirs.body.data.invitationId)?.status).toBe("pending");
  });

  it("records belong to the account: a member's domain is the owner's, seen by every member", async () => {
    config();
    const owner = await signUp();
    const dev = await signUp();
    await call(acceptInvite, { method: "POST", headers: dev.auth, body: { token: (await invited(owner, "developer")).token } });
    const added = await call(addDomain, {
      method: "POST",
      headers: inAccount(dev.auth, owner.userId),
      body: { domain: "https://team.example.com" },
    });
    expect(added.status).toBe(201);
    expect((await call(listDomains, { headers: owner.auth })).body.data.map((d: { domain: string }) => d.domain)).toEqual([
      "https://team.example.com",
    ]);
    expect((await call(listDomains, { headers: dev.auth })).body.data).toEqual([]); // their home account
  });
});

describe("migration of single-user accounts (0038)", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(readMigrations().filter((m) => m.tag < "0038"));
    await handle.db.execute(
      sql`insert into users (id, email, password_hash) overriding system value values (7, 'old@example.com', 'x'), (8, 'two@example.com', 'y')`,
    );
    await handle.db.execute(sql`insert into domains (id, user_id, origin) overriding system value values (1, 7, 'https://old.example')`);
    await handle.db.execute(
      sql`insert into api_keys (id, user_id, name, prefix, key_hash) overriding system value values (1, 7, 'k', 'p', 'h')`,
    );
    await migrate(handle.db);
  }, 120_000);
  afterAll(async () => handle?.close());

  it("makes every existing user the owner of their account, keeps their records, and owns new users' home accounts", async () => {
    const members = await handle.db.select().from(accountMembers).orderBy(accountMembers.accountId);
    expect(members.map((m) => [m.accountId, m.userId, m.role])).toEqual([
      [7, 7, "owner"],
      [8, 8, "owner"],
    ]);
    expect(rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from domains where user_id = 7`))).toEqual([
      { n: 1 },
    ]);
    await handle.db.execute(sql`insert into users (email, password_hash) values ('new@example.com', 'z')`);
    const [created] = await handle.db.select().from(users).where(eq(users.email, "new@example.com"));
    expect(await handle.db.select().from(accountMembers).where(eq(accountMembers.userId, created!.id))).toMatchObject([
      { accountId: created!.id, role: "owner" },
    ]);
  });
});
