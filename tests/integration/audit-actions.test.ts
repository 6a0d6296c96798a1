import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as revokeKey } from "@/app/api/user/api-keys/[id]/route";
import { POST as createKey } from "@/app/api/user/api-keys/route";
import { PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { POST as addDomain } from "@/app/api/user/domains/route";
import { POST as acceptInvite } from "@/app/api/user/invitations/accept/route";
import { POST as invite } from "@/app/api/user/invitations/route";
import { PATCH as changeRole, DELETE as removeMember } from "@/app/api/user/members/[userId]/route";
import { POST as changePassword } from "@/app/api/user/password/route";
import { PATCH as patchSettings } from "@/app/api/user/settings/route";
import { POST as issueToken } from "@/app/api/user/token/route";
import { auditEvents } from "@/lib/db/schema";
import { signUp } from "../helpers/accounts";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call, fromClient } from "../helpers/http";

/** Every change of money or security done in the members' tests is in the audit log, with its actor and address. */
const db = useTestDatabase();
const config = () => useConfig({ NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
const PAYOUT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const logOf = async (accountId: number) =>
  (await db().select().from(auditEvents).where(eq(auditEvents.accountId, accountId)).orderBy(asc(auditEvents.id))).map((e) => ({
    action: e.action,
    actor: e.actorLabel,
    kind: e.actorKind,
    address: e.address,
    target: e.targetType ? `${e.targetType}:${e.targetId}` : null,
    before: e.before,
    after: e.after,
  }));

describe("the audit log records who did what", () => {
  it("sign-ins, members, keys, payout targets, webhooks, settings and passwords, each by its member from their address", async () => {
    config();
    const owner = await signUp();
    const dev = await signUp();
    const home = { ...fromClient("203.0.113.7") };
    const asDev = { ...dev.auth, ...fromClient("198.51.100.9"), "x-account-id": String(owner.userId) };

    const link = await call(invite, { method: "POST", headers: { ...owner.auth, ...home }, body: { role: "developer" } });
    await call(acceptInvite, {
      method: "POST",
      headers: { ...dev.auth, ...fromClient("198.51.100.9") },
      body: { token: link.body.data.token },
    });
    const key = await call(createKey, { method: "POST", headers: asDev, body: { name: "ci" } });
    await call(revokeKey, { method: "DELETE", headers: asDev, params: { id: String(key.body.data.id) } });
    const domain = await call(addDomain, { method: "POST", headers: asDev, body: { domain: "https://audit.example.com" } });
    const domainId = String(domain.body.data.domainId);
    await call(patchDomain, {
      method: "PATCH",
      headers: asDev,
      params: { id: domainId },
      body: { webhookUrl: "https://hooks.example.com/a" },
    });
    // A developer may not move money's target: refused, and nothing recorded for it.
    const refused = await call(patchDomain, { method: "PATCH", headers: asDev, params: { id: domainId }, body: { payoutAddress: PAYOUT } });
    expect(refused.status).toBe(403);
    await call(patchDomain, {
      method: "PATCH",
      headers: { ...owner.auth, ...home },
      params: { id: domainId },
      body: { payoutAddress: PAYOUT },
    });
    await call(patchSettings, { method: "PATCH", headers: { ...owner.auth, ...home }, body: { accountCurrency: "EUR" } });
    await call(changeRole, {
      method: "PATCH",
      headers: { ...owner.auth, ...home },
      params: { userId: String(dev.userId) },
      body: { role: "viewer" },
    });
    await call(changePassword, {
      method: "POST",
      headers: { ...dev.auth, ...fromClient("198.51.100.9") },
      body: { currentPassword: dev.password, newPassword: "another long password" },
    });
    await call(issueToken, {
      method: "POST",
      headers: fromClient("198.51.100.10"),
      body: { email: dev.email, password: "another long password" },
    });
    await call(removeMember, { method: "DELETE", headers: { ...owner.auth, ...home }, params: { userId: String(dev.userId) } });

    const log = await logOf(owner.userId);
    expect(log.map((e) => [e.action, e.actor, e.address])).toEqual([
      ["auth.sign_in", owner.email, expect.any(String)],
      ["member.invited", owner.email, "203.0.113.7"],
      ["member.added", dev.email, "198.51.100.9"],
      ["api_key.created", dev.email, "198.51.100.9"],
      ["api_key.revoked", dev.email, "198.51.100.9"],
      ["domain.webhook_changed", dev.email, "198.51.100.9"],
      ["domain.payout_target_changed", owner.email, "203.0.113.7"],
      ["account.settings_changed", owner.email, "203.0.113.7"],
      ["member.role_changed", owner.email, "203.0.113.7"],
      ["password.changed", dev.email, "198.51.100.9"],
      ["auth.sign_in", dev.email, "198.51.100.10"],
      ["member.removed", owner.email, "203.0.113.7"],
    ]);
    expect(log.every((e) => e.kind === "user")).toBe(true);
    const byAction = Object.fromEntries(log.map((e) => [e.action, e]));
    expect(byAction["member.role_changed"]).toMatchObject({
      target: `user:${dev.userId}`,
      before: { role: "developer" },
      after: { role: "viewer" },
    });
    expect(byAction["domain.payout_target_changed"]).toMatchObject({ before: { payoutAddress: null }, after: { payoutAddress: PAYOUT } });
    expect(byAction["api_key.created"]?.after).toMatchObject({ name: "ci", kind: "secret" });
    expect(JSON.stringify(log)).not.toContain(key.body.data.key);
    expect(JSON.stringify(log)).not.toContain("another long password");
    // The developer's own security events are in their home account too; nothing of the owner's account is.
    const devHome = await logOf(dev.userId);
    expect(devHome.map((e) => e.action)).toEqual(["auth.sign_in", "password.changed", "auth.sign_in"]);
    expect(
      await db()
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.accountId, dev.userId), eq(auditEvents.action, "member.invited"))),
    ).toEqual([]);
  });
});
