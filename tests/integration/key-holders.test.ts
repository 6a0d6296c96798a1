/**
 * Keys belong to people (docs/design.md §26), played by the insiders of the black-box check:
 * a developer who minted a key with every scope and withdrew with it, a removed admin whose key
 * still moved money, a finance member demoted to viewer, an admin without two-factor, a finance
 * member choosing where a payment's money goes. Each refusal changes nothing.
 */

import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as createKey, GET as listKeys } from "@/app/api/user/api-keys/route";
import { PATCH as changeRole, DELETE as removeMember } from "@/app/api/user/members/[userId]/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { GET as history } from "@/app/api/v1/payment/history/route";
import { GET as withdrawalHistory } from "@/app/api/v1/withdrawal/history/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { AUTHENTICATED_KEY_TTL_MS } from "@/lib/accounts/api-keys/authenticate-api-key";
import { accountMembers, apiKeys, auditEvents, paymentSessions } from "@/lib/db/schema";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";
import { keyRow, memberWith, withTwoFactor } from "../helpers/members";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const WALLET = "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097";
let merchant: Merchant;

const keysOf = async (accountId: number) =>
  Number((await db().select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, accountId)))[0]?.n ?? 0);
const auditCount = async (accountId: number) =>
  Number((await db().select({ n: count() }).from(auditEvents).where(eq(auditEvents.accountId, accountId)))[0]?.n ?? 0);
const sessions = async () => Number((await db().select({ n: count() }).from(paymentSessions))[0]?.n ?? 0);
const withKey = (key: string) => ({ "x-api-key": key });
const newKey = (auth: Record<string, string>, body: Record<string, unknown>) => call(createKey, { method: "POST", headers: auth, body });
const withdraw = (key: string) =>
  call(send, {
    method: "POST",
    headers: withKey(key),
    body: { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: WALLET, amount: "120" },
  });
const remove = (userId: number, auth = merchant.auth) =>
  call(removeMember, { method: "DELETE", headers: auth, params: { userId: String(userId) } });

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  merchant = await setUpMerchant({ contractAddress: await deployTestToken(chain().url), network: "bsc" });
}, 60_000);

describe("a developer (read + developer permissions)", () => {
  it("cannot mint a key that moves money: 403 scope-exceeds-role, nothing made, even with two-factor and a code", async () => {
    const developer = await memberWith(merchant.userId, "developer");
    let [keys, audit] = [await keysOf(merchant.userId), await auditCount(merchant.userId)];
    const refused = await newKey(developer.auth, { name: "everything", scopes: ["payments:read", "withdrawals", "payouts"] });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "FORBIDDEN", reason: "scope-exceeds-role", details: [{ path: "scopes" }] });
    expect(refused.body.error.message).toContain("`withdrawals`, `payouts`");
    expect([await keysOf(merchant.userId), await auditCount(merchant.userId)]).toEqual([keys, audit]);
    const { own, code } = await withTwoFactor(developer.userId, developer.password);
    const auth = { ...own, "x-account-id": String(merchant.userId) };
    [keys, audit] = [await keysOf(merchant.userId), await auditCount(merchant.userId)]; // turning two-factor on is audited
    const current = await code();
    const stillRefused = await newKey(auth, { scopes: ["refunds"], code: current });
    expect(stillRefused.body.error.reason).toBe("scope-exceeds-role");
    expect([await keysOf(merchant.userId), await auditCount(merchant.userId)]).toEqual([keys, audit]);
    // The refusal came before the code was checked: the same code still makes an allowed key.
    const allowed = await newKey(auth, { name: "reader", code: current });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
    expect(allowed.body.data).toMatchObject({ scopes: ["payments:read"], createdBy: { userId: developer.userId, email: developer.email } });
  });

  it("gets payments:read by default; a key of theirs holding more (made before this rule) acts with payments:read only", async () => {
    const developer = await memberWith(merchant.userId, "developer");
    const made = await newKey(developer.auth, { name: "default" });
    expect(made.body.data.scopes).toEqual(["payments:read"]);
    const old = await keyRow(merchant.userId, developer.userId); // every scope, as the insider minted it
    const before = await sessions();
    for (const attempt of [await withdraw(old.key), await call(withdrawalHistory, { headers: withKey(old.key) })]) {
      expect(attempt.status).toBe(401);
      expect(attempt.body.error.reason).toBe("api-key-scope-missing");
    }
    const payment = await call(create, { method: "POST", headers: withKey(old.key), body: { tokenId: merchant.tokenId, amount: "5" } });
    expect(payment.body.error.reason).toBe("api-key-scope-missing");
    expect(await sessions()).toBe(before);
    expect((await call(history, { headers: withKey(old.key) })).status).toBe(200);
  });
});

describe("an admin without two-factor", () => {
  it("cannot create a key with a money scope (403 two-factor-required, nothing made); by default gets the payment scopes", async () => {
    const admin = await memberWith(merchant.userId, "admin");
    const [keys, audit] = [await keysOf(merchant.userId), await auditCount(merchant.userId)];
    for (const scopes of [["refunds"], ["payments:write", "withdrawals"], ["payouts"]]) {
      const refused = await newKey(admin.auth, { name: "money", scopes });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: "FORBIDDEN", reason: "two-factor-required" });
      expect(refused.body.error.message).toContain("turn two-factor authentication on");
    }
    expect([await keysOf(merchant.userId), await auditCount(merchant.userId)]).toEqual([keys, audit]);
    const fallback = await newKey(admin.auth, { name: "payments" });
    expect(fallback.body.data.scopes).toEqual(["payments:write", "payments:read"]);
  });

  it("with two-factor on: a missing or wrong code makes nothing; the current one makes a key with every scope by default", async () => {
    const admin = await memberWith(merchant.userId, "admin");
    const { own, code } = await withTwoFactor(admin.userId, admin.password);
    const auth = { ...own, "x-account-id": String(merchant.userId) };
    const keys = await keysOf(merchant.userId);
    const missing = await newKey(auth, { scopes: ["withdrawals"] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ reason: "two-factor-code-required", details: [{ path: "code" }] });
    expect((await newKey(auth, { scopes: ["withdrawals"], code: "000000" })).body.error.reason).toBe("two-factor-code-wrong");
    expect(await keysOf(merchant.userId)).toBe(keys);
    const made = await newKey(auth, { name: "treasury", code: await code() });
    expect(made.status).toBe(201);
    expect(made.body.data.scopes).toEqual(["payments:write", "payments:read", "refunds", "withdrawals", "payouts"]);
    expect((await call(withdrawalHistory, { headers: withKey(made.body.data.key) })).status).toBe(200);
  });
});

describe("a removed member's keys", () => {
  it("are revoked with the removal (audited, shown as such) and answer 401; so does a key of theirs written after it", async () => {
    const admin = await memberWith(merchant.userId, "admin");
    const { own, code } = await withTwoFactor(admin.userId, admin.password);
    const made = (await newKey({ ...own, "x-account-id": String(merchant.userId) }, { name: "admin's", code: await code() })).body.data;
    const older = await keyRow(merchant.userId, admin.userId);
    expect((await call(withdrawalHistory, { headers: withKey(made.key) })).status).toBe(200);
    const removed = await remove(admin.userId);
    expect(removed.body.data).toMatchObject({ userId: admin.userId, role: "admin", apiKeysRevoked: 2, invitationsRevoked: 0 });
    for (const key of [made.key, older.key]) {
      const refused = await withdraw(key);
      expect(refused.status).toBe(401);
      expect(refused.body.error.reason).toBe("api-key-invalid");
    }
    // A key row nobody revoked (another door, an older release): its maker is no member, it acts for nobody.
    const stray = await keyRow(merchant.userId, admin.userId);
    expect((await call(history, { headers: withKey(stray.key) })).status).toBe(401);

    const listed = (await call(listKeys, { headers: merchant.auth })).body.data as { id: number; revokedReason: string | null }[];
    expect(listed.find((k) => k.id === made.id)).toMatchObject({
      revokedAt: expect.any(String),
      revokedReason: "member-removed",
      createdBy: { userId: admin.userId, email: admin.email },
    });
    const audit = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.accountId, merchant.userId), eq(auditEvents.action, "api_key.revoked")));
    expect(audit.filter((row) => (row.after as { createdBy?: number } | null)?.createdBy === admin.userId)).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toContain(made.key);
  });

  it("stop working on this instance the moment the removal answers, even while requests with them are in flight", async () => {
    await resetRateLimits();
    const finance = await memberWith(merchant.userId, "finance");
    const { key } = await keyRow(merchant.userId, finance.userId);
    expect((await call(history, { headers: withKey(key) })).status).toBe(200); // remembered for AUTHENTICATED_KEY_TTL_MS
    const started = Date.now();
    const inFlight = Array.from({ length: 20 }, () => call(history, { headers: withKey(key) }));
    const removal = remove(finance.userId);
    await Promise.all(inFlight); // either answer is right for a request racing the removal
    expect((await removal).status).toBe(200);
    const after = await Promise.all(Array.from({ length: 10 }, () => call(history, { headers: withKey(key) })));
    expect(after.map((r) => r.status)).toEqual(Array(10).fill(401));
    expect(Date.now() - started).toBeLessThan(AUTHENTICATED_KEY_TTL_MS * 10); // not the cache running out: forgotten
  });
});

describe("a role that shrinks", () => {
  it("from finance to viewer leaves the member's keys without the money scopes: a withdrawal with one is refused", async () => {
    const finance = await memberWith(merchant.userId, "finance");
    const full = await keyRow(merchant.userId, finance.userId);
    const withdrawOnly = await keyRow(merchant.userId, finance.userId, ["withdrawals"]);
    expect((await call(withdrawalHistory, { headers: withKey(full.key) })).status).toBe(200);
    const changed = await call(changeRole, {
      method: "PATCH",
      headers: merchant.auth,
      params: { userId: String(finance.userId) },
      body: { role: "viewer" },
    });
    expect(changed.status).toBe(200);
    const refused = await withdraw(full.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.reason).toBe("api-key-scope-missing");
    expect((await call(history, { headers: withKey(full.key) })).status).toBe(200);
    expect((await call(history, { headers: withKey(withdrawOnly.key) })).status).toBe(401);

    const listed = (await call(listKeys, { headers: merchant.auth })).body.data as { id: number }[];
    expect(listed.find((k) => k.id === full.id)).toMatchObject({
      scopes: ["payments:read"],
      revokedAt: null,
      scopesReduced: { at: expect.any(String), from: ["payments:write", "payments:read", "refunds", "withdrawals", "payouts"] },
    });
    expect(listed.find((k) => k.id === withdrawOnly.id)).toMatchObject({ revokedAt: expect.any(String), revokedReason: "role-reduced" });
    const [reduced] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "api_key.scopes_reduced"), eq(auditEvents.targetId, String(full.id))));
    expect(reduced).toMatchObject({
      before: { scopes: ["payments:write", "payments:read", "refunds", "withdrawals", "payouts"] },
      after: { role: "viewer", scopes: ["payments:read"] },
    });
  });

  it("bounds the member's keys at once even when the role changed behind the service's back (the key acts with the role it finds)", async () => {
    const finance = await memberWith(merchant.userId, "finance");
    const { key } = await keyRow(merchant.userId, finance.userId);
    await db()
      .update(accountMembers)
      .set({ role: "developer" })
      .where(and(eq(accountMembers.accountId, merchant.userId), eq(accountMembers.userId, finance.userId)));
    await new Promise((resolve) => setTimeout(resolve, AUTHENTICATED_KEY_TTL_MS + 50));
    expect((await call(withdrawalHistory, { headers: withKey(key) })).body.error.reason).toBe("api-key-scope-missing");
    expect((await call(history, { headers: withKey(key) })).status).toBe(200);
  });
});

describe("merchantWallet (where a payment's money goes)", () => {
  it("from a finance member's key holding payouts is refused (403 scope-exceeds-role), nothing created; the owner's key may", async () => {
    const finance = await memberWith(merchant.userId, "finance");
    const { key } = await keyRow(merchant.userId, finance.userId);
    const before = await sessions();
    const body = { tokenId: merchant.tokenId, amount: "3", merchantWallet: WALLET };
    const refused = await call(create, { method: "POST", headers: withKey(key), body });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "FORBIDDEN", reason: "scope-exceeds-role" });
    expect(refused.body.error.message).toContain("only owner may choose where a payment's money goes");
    expect(await sessions()).toBe(before);
    const plain = await call(create, { method: "POST", headers: withKey(key), body: { tokenId: merchant.tokenId, amount: "3" } });
    expect(plain.status).toBe(201);
    const owners = await call(create, { method: "POST", headers: withKey(merchant.apiKey), body });
    expect(owners.status, JSON.stringify(owners.body)).toBe(201);
  });
});
