/**
 * Two-factor is the acting member's (docs/design.md §26): an owner may require it of every
 * member who can move money, approve it, hold the keys or choose where money goes — such a member
 * without it may only enrol, in that account alone, and the keys they made are refused meanwhile —
 * and every code asked is the code of the member acting, never the account's own user's.
 */

import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as gas } from "@/app/api/user/gas/route";
import { PATCH as patchLink } from "@/app/api/user/payment-links/[id]/route";
import { POST as createLink } from "@/app/api/user/payment-links/route";
import { GET as getSettings, PATCH as patchSettings } from "@/app/api/user/settings/route";
import { POST as confirmTwoFactor } from "@/app/api/user/two-factor/confirm/route";
import { POST as startTwoFactor } from "@/app/api/user/two-factor/route";
import { GET as history } from "@/app/api/v1/payment/history/route";
import { requirePermission, resolvePrincipal } from "@/lib/accounts/members/principal";
import { totpCode, totpStep } from "@/lib/accounts/users/totp";
import { auditEvents, users } from "@/lib/db/schema";
import { addDomain } from "@/lib/domain/merchant-domains/add-domain";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { bearer, call } from "../helpers/http";
import { inAccount, keyRow, memberWith, type TestMember, userRow, withTwoFactor } from "../helpers/members";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
let token: `0x${string}`;
/** setUpMerchant's (signUp's) password. */
const PASSWORD = "correct horse battery";

const ruleOf = async (accountId: number) => (await userRow(accountId)).membersNeedTwoFactor;
const settingsAudit = async (accountId: number) =>
  Number(
    (
      await db()
        .select({ n: count() })
        .from(auditEvents)
        .where(and(eq(auditEvents.accountId, accountId), eq(auditEvents.action, "account.settings_changed")))
    )[0]?.n ?? 0,
  );
const setRule = (auth: Record<string, string>, body: unknown) => call(patchSettings, { method: "PATCH", headers: auth, body });

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  token = await deployTestToken(chain().url);
}, 60_000);

describe("the setting 'members need two-factor'", () => {
  let merchant: Merchant;
  let owner: { own: Record<string, string>; code: () => Promise<string> };
  let admin: TestMember;

  beforeAll(async () => {
    merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    admin = await memberWith(merchant.userId, "admin");
  }, 60_000);

  it("is the owner's alone, with their own two-factor and code; bad input changes nothing", async () => {
    const refused = await setRule(merchant.auth, { membersNeedTwoFactor: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error.reason).toBe("two-factor-required"); // the owner has none yet
    owner = await withTwoFactor(merchant.userId, PASSWORD);
    const adminFactor = await withTwoFactor(admin.userId, admin.password);
    const byAdmin = await setRule(inAccount(adminFactor.own, merchant.userId), {
      membersNeedTwoFactor: true,
      code: await adminFactor.code(),
    });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.reason).toBe("role-forbids");
    for (const body of [{ membersNeedTwoFactor: "yes" }, {}, { membersNeedTwoFactor: true, extra: 1 }, { membersNeedTwoFactor: true }]) {
      const bad = await setRule(owner.own, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    expect(await ruleOf(merchant.userId)).toBe(false);
    expect(await settingsAudit(merchant.userId)).toBe(0);
  });

  it("once on, holds a finance member without two-factor to enrolling in this account only, and refuses their keys", async () => {
    const finance = await memberWith(merchant.userId, "finance");
    const viewer = await memberWith(merchant.userId, "viewer");
    const financeKey = await keyRow(merchant.userId, finance.userId);
    const on = await setRule(owner.own, { membersNeedTwoFactor: true, code: await owner.code() });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.data).toMatchObject({ membersNeedTwoFactor: true });
    // Who it holds: every role but viewer, without two-factor (the admin turned theirs on above).
    expect(on.body.data.membersWithoutTwoFactor).toEqual([{ userId: finance.userId, email: finance.email, role: "finance" }]);
    const [audited] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.accountId, merchant.userId), eq(auditEvents.action, "account.settings_changed")));
    expect(audited).toMatchObject({ before: { membersNeedTwoFactor: false }, after: { membersNeedTwoFactor: true } });

    const held = await call(gas, { headers: finance.auth });
    expect(held.status).toBe(403);
    expect(held.body.error).toMatchObject({ code: "FORBIDDEN", reason: "two-factor-required-by-account" });
    const keyHeld = await call(history, { headers: { "x-api-key": financeKey.key } });
    expect(keyHeld.status).toBe(403);
    expect(keyHeld.body.error.reason).toBe("two-factor-required-by-account");
    expect((await call(gas, { headers: finance.own })).status).toBe(200); // their own account does not require it
    expect((await call(gas, { headers: viewer.auth })).status).toBe(200); // a viewer moves nothing
    expect((await call(getSettings, { headers: merchant.auth })).status).toBe(401); // the owner's old token ended with enrolment

    // Enrolment is open to them (over the API too): then the account and their keys work again.
    const started = await call(startTwoFactor, { method: "POST", headers: finance.own });
    expect(started.status).toBe(200);
    const confirmed = await call(confirmTwoFactor, {
      method: "POST",
      headers: finance.own,
      body: { code: totpCode(started.body.data.secret, totpStep()), currentPassword: finance.password },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data.recoveryCodes).toHaveLength(10);
    expect((await call(gas, { headers: finance.own })).status).toBe(401); // every earlier token ended
    expect((await call(gas, { headers: inAccount(bearer(confirmed.body.data.token), merchant.userId) })).status).toBe(200);
    expect((await call(history, { headers: { "x-api-key": financeKey.key } })).status).toBe(200);
  });

  it("holds every door of the dashboard too: the principal is enrol-only and no permission passes", async () => {
    const developer = await memberWith(merchant.userId, "developer");
    const principal = await resolvePrincipal(db(), await userRow(developer.userId), merchant.userId);
    expect(principal.enrolOnly).toBe(true);
    expect(() => requirePermission(principal, "read")).toThrow(expect.objectContaining({ reason: "two-factor-required-by-account" }));
    const home = await resolvePrincipal(db(), await userRow(developer.userId), developer.userId);
    expect(home.enrolOnly).toBe(false);
  });

  it("turned off (with the owner's code), releases them", async () => {
    const developer = await memberWith(merchant.userId, "developer");
    expect((await call(gas, { headers: developer.auth })).status).toBe(403);
    const off = await setRule(owner.own, { membersNeedTwoFactor: false, code: await owner.code() });
    expect(off.body.data).toMatchObject({ membersNeedTwoFactor: false });
    expect((await call(gas, { headers: developer.auth })).status).toBe(200);
  });
});

describe("a code asked when a link's money moves to another domain", () => {
  it("is the acting admin's, not the owner's: the owner has two-factor, the admin has none — no code needed", async () => {
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    const other = await addDomain(db(), merchant.userId, "https://other.example.com");
    await withTwoFactor(merchant.userId, PASSWORD);
    const admin = await memberWith(merchant.userId, "admin");
    const made = await call(createLink, {
      method: "POST",
      headers: admin.auth,
      body: { title: "Mug", tokenId: merchant.tokenId, amount: "5" },
    });
    expect(made.status).toBe(201);
    const moved = await call(patchLink, {
      method: "PATCH",
      headers: admin.auth,
      params: { id: String(made.body.data.linkId) },
      body: { domainId: other.id },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.domainId).toBe(other.id);
    const elsewhere = await call(createLink, {
      method: "POST",
      headers: admin.auth,
      body: { title: "Cup", tokenId: merchant.tokenId, amount: "5", domainId: other.id },
    });
    expect(elsewhere.status).toBe(201);
  });

  it("is the acting admin's when they have two-factor and the owner has none: missing or wrong → 400, nothing moves", async () => {
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    const other = await addDomain(db(), merchant.userId, "https://other.example.com");
    const admin = await memberWith(merchant.userId, "admin");
    const { own, code } = await withTwoFactor(admin.userId, admin.password);
    const auth = inAccount(own, merchant.userId);
    const made = await call(createLink, { method: "POST", headers: auth, body: { title: "Mug", tokenId: merchant.tokenId, amount: "5" } });
    const params = { id: String(made.body.data.linkId) };
    const missing = await call(patchLink, { method: "PATCH", headers: auth, params, body: { domainId: other.id } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.reason).toBe("two-factor-code-required");
    const wrong = await call(patchLink, { method: "PATCH", headers: auth, params, body: { domainId: other.id, code: "000000" } });
    expect(wrong.body.error.reason).toBe("two-factor-code-wrong");
    expect((await call(patchLink, { method: "PATCH", headers: merchant.auth, params, body: { title: "still here" } })).status).toBe(200);
    const moved = await call(patchLink, { method: "PATCH", headers: auth, params, body: { domainId: other.id, code: await code() } });
    expect(moved.status).toBe(200);
    expect(moved.body.data.domainId).toBe(other.id);
    const [account] = await db().select({ totp: users.totpEnabledAt }).from(users).where(eq(users.id, merchant.userId));
    expect(account?.totp).toBeNull(); // nothing was asked of the account's own user
  });
});
