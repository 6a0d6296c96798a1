import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { describe, expect, it, vi } from "vitest";
import { POST as changePasswordRoute } from "@/app/api/user/password/route";
import { POST as register } from "@/app/api/user/register/route";
import { POST as signOutEverywhereRoute } from "@/app/api/user/sign-out-everywhere/route";
import { POST as issueToken } from "@/app/api/user/token/route";
import { GET as listTokens, POST as postToken } from "@/app/api/user/tokens/route";
import { SIGN_IN_WINDOW_MS } from "@/lib/accounts/abuse/sign-in-throttle";
import { issueBearerToken } from "@/lib/accounts/auth/bearer-token";
import { changePassword, signOutEverywhere } from "@/lib/accounts/users/change-password";
import { users } from "@/lib/db/schema";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { signUp } from "../helpers/accounts";
import { useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { bearer, call, fromClient, SITE } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const SECRET = "integration-test-secret-0123456789";
const config = () => useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, NEXTAUTH_URL: SITE });

describe("POST /api/user/register", () => {
  it("creates a user with a normalised email and a scrypt hash, never echoing the password", async () => {
    config();
    const res = await call(register, { method: "POST", body: { email: "  Alice@Example.COM ", password: "correct horse battery" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: { userId: expect.any(Number), email: "alice@example.com", createdAt: expect.any(String) },
    });
    expect(JSON.stringify(res.body)).not.toContain("correct horse");
    const [row] = await db().select().from(users).where(eq(users.email, "alice@example.com"));
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
  });

  it("refuses a duplicate email (any case) with VALIDATION_ERROR and creates nothing", async () => {
    const before = (await db().select().from(users)).length;
    const res = await call(register, { method: "POST", body: { email: "ALICE@example.com", password: "another password" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: "an account with this email already exists", reason: "email-taken" },
    });
    expect((await db().select().from(users)).length).toBe(before);
  });

  it.each([
    [{ email: "bob@example.com", password: "short" }, "password must be at least 10 characters"],
    [{ email: "not-an-email", password: "long enough password" }, "email is not a valid address"],
    [{ email: 5, password: "long enough password" }, "email must be a string"],
    [{ password: "long enough password" }, "email must be a string"],
    [{ email: "bob@example.com", password: ["x"] }, "password must be a string"],
  ])("rejects %j", async (body, message) => {
    const before = (await db().select().from(users)).length;
    const res = await call(register, { method: "POST", body });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.message).toContain(message);
    expect((await db().select().from(users)).length).toBe(before);
  });

  it("answers bad JSON, a non-object body and an oversize body with VALIDATION_ERROR", async () => {
    const bad = await call(register, { method: "POST", body: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ code: "VALIDATION_ERROR", message: "request body is not valid JSON", reason: "invalid-request" });
    const array = await call(register, { method: "POST", body: "[1,2]" });
    expect(array.body.error.message).toBe("request body must be a JSON object");
    const huge = await call(register, {
      method: "POST",
      body: { email: "big@example.com", password: "long enough password", pad: "x".repeat(70 * 1024) },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toBe("request body is larger than 64 KB");
  });
});

describe("POST /api/user/token and bearer authentication", () => {
  it("issues a bearer token that /api/user endpoints accept, with its expiry", async () => {
    config();
    const res = await call(issueToken, { method: "POST", body: { email: "alice@example.com", password: "correct horse battery" } });
    expect(res.status).toBe(200);
    const { token, expiresAt } = res.body.data;
    expect(typeof token).toBe("string");
    const ttl = new Date(expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(86_000_000);
    expect(ttl).toBeLessThanOrEqual(86_400_000);
    const list = await call(listTokens, { headers: bearer(token) });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ success: true, data: [] });
  });

  it("answers wrong credentials with the same 401 whether or not the email exists", async () => {
    const wrongPassword = await call(issueToken, { method: "POST", body: { email: "alice@example.com", password: "wrong password!!" } });
    const unknownEmail = await call(issueToken, { method: "POST", body: { email: "nobody@example.com", password: "wrong password!!" } });
    const malformedEmail = await call(issueToken, { method: "POST", body: { email: "not an email", password: "wrong password!!" } });
    for (const res of [wrongPassword, unknownEmail, malformedEmail]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        success: false,
        error: { code: "UNAUTHORIZED", message: "invalid email or password", reason: "credentials-invalid" },
      });
    }
  });

  it("throttles failed sign-ins per account from any address: past 10 in 15 minutes even the right password waits; a success clears the count", async () => {
    config();
    await resetRateLimits();
    const { email } = await signUp(undefined, "correct horse battery");
    const attempt = (password: string, i: number, who = email) =>
      call(issueToken, { method: "POST", headers: fromClient(`203.0.113.${i % 250}`), body: { email: who, password } });
    for (let i = 0; i < 9; i++) expect((await attempt("wrong password!!", i)).status).toBe(401);
    expect((await attempt("correct horse battery", 9)).status).toBe(200); // clears the count
    for (let i = 10; i < 20; i++) expect((await attempt("wrong password!!", i)).status).toBe(401);
    const throttled = await attempt("correct horse battery", 20);
    expect(throttled.status).toBe(429);
    expect(throttled.body.error).toMatchObject({ code: "RATE_LIMITED" });
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(800);
    // An unknown email is throttled the same way: the answers say nothing about which accounts exist.
    for (let i = 0; i < 10; i++) expect((await attempt("wrong password!!", 30 + i, "nobody-here@example.com")).status).toBe(401);
    expect((await attempt("wrong password!!", 40, "nobody-here@example.com")).status).toBe(429);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + SIGN_IN_WINDOW_MS + 1_000);
      expect((await attempt("correct horse battery", 41)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers a body without the credentials' fields with VALIDATION_ERROR", async () => {
    const res = await call(issueToken, { method: "POST", body: { email: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", message: "email must be a string" });
  });

  it("refuses a missing, malformed, forged or expired bearer token", async () => {
    const { userId } = await signUp();
    const expired = await encode({ token: { sub: String(userId) }, secret: SECRET, maxAge: -60 });
    const forged = await encode({ token: { sub: String(userId) }, secret: "some-other-secret-0123456789", maxAge: 600 });
    for (const headers of [{}, { authorization: "Basic abc" }, bearer("garbage"), bearer(forged), bearer(expired)]) {
      const res = await call(listTokens, { headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("UNAUTHORIZED");
    }
  });

  it("refuses the token of a user that no longer exists", async () => {
    // A user who never signed in (a signed-in one has audit history, which keeps the row).
    const [user] = await db()
      .insert(users)
      .values({ email: `gone-${Date.now()}@example.com`, passwordHash: "x" })
      .returning();
    const { token } = await issueBearerToken(user!);
    await db().delete(users).where(eq(users.id, user!.id));
    expect((await call(listTokens, { headers: bearer(token) })).status).toBe(401);
  });
});

describe("dashboard session cookie", () => {
  async function sessionCookie() {
    const { userId } = await signUp();
    const jwt = await encode({ token: { sub: String(userId), email: "x@example.com" }, secret: SECRET, maxAge: 600 });
    return { cookie: `next-auth.session-token=${jwt}` };
  }

  it("is accepted for reads", async () => {
    config();
    const res = await call(listTokens, { headers: await sessionCookie() });
    expect(res.status).toBe(200);
  });

  it("is accepted for mutations only from the site's own origin (CSRF)", async () => {
    const headers = await sessionCookie();
    const body = { contractAddress: "0x0000000000000000000000000000000000000001", network: "nowhere" };
    const crossSite = await call(postToken, { method: "POST", headers: { ...headers, origin: "https://evil.example" }, body });
    expect(crossSite.status).toBe(401);
    expect(crossSite.body.error.message).toContain("cross-site");
    const noOrigin = await call(postToken, { method: "POST", headers, body });
    expect(noOrigin.status).toBe(401);
    const sameSite = await call(postToken, { method: "POST", headers: { ...headers, origin: SITE }, body });
    expect(sameSite.status).toBe(400); // authenticated; then the unknown network is refused
    expect(sameSite.body.error.message).toContain('network "nowhere" is not configured');
  });
});

describe("a changed password ends every other session (token version)", () => {
  const cookieFor = async (userId: number, ver?: number) => ({
    cookie: `next-auth.session-token=${await encode({ token: { sub: String(userId), email: "x@example.com", ...(ver === undefined ? {} : { ver }) }, secret: SECRET, maxAge: 600 })}`,
  });

  it("revokes bearer tokens and dashboard sessions issued before a password change; new ones work", async () => {
    config();
    const { userId, email, password, auth } = await signUp();
    const browser = await cookieFor(userId, 0);
    const oldBrowser = await cookieFor(userId); // issued before token versions existed: version 0
    for (const headers of [auth, browser, oldBrowser]) expect((await call(listTokens, { headers })).status).toBe(200);

    await changePassword(db(), userId, { currentPassword: password, newPassword: "a brand new password" });
    for (const headers of [auth, browser, oldBrowser]) {
      const refused = await call(listTokens, { headers });
      expect(refused.status).toBe(401);
      expect(refused.body.error.message).toContain("revoked");
    }
    expect((await call(issueToken, { method: "POST", body: { email, password } })).status).toBe(401);
    const fresh = await call(issueToken, { method: "POST", body: { email, password: "a brand new password" } });
    expect((await call(listTokens, { headers: bearer(fresh.body.data.token) })).status).toBe(200);
    expect((await call(listTokens, { headers: await cookieFor(userId, 1) })).status).toBe(200);
  });

  it("signs out everywhere: every session and bearer token of the account, and nobody else's", async () => {
    config();
    const me = await signUp();
    const other = await signUp();
    await signOutEverywhere(db(), me.userId);
    expect((await call(listTokens, { headers: me.auth })).status).toBe(401);
    expect((await call(listTokens, { headers: await cookieFor(me.userId, 0) })).status).toBe(401);
    expect((await call(listTokens, { headers: other.auth })).status).toBe(200);
    const again = await call(issueToken, { method: "POST", body: { email: me.email, password: me.password } });
    expect((await call(listTokens, { headers: bearer(again.body.data.token) })).status).toBe(200);
  });

  it("does the same over the user API: POST /api/user/password answers a fresh token, POST /api/user/sign-out-everywhere ends them all", async () => {
    config();
    const { email, password, auth } = await signUp();
    const other = (await call(issueToken, { method: "POST", body: { email, password } })).body.data.token;
    const wrong = await call(changePasswordRoute, {
      method: "POST",
      headers: auth,
      body: { currentPassword: "not it at all", newPassword: "another long password" },
    });
    expect(wrong.status).toBe(400);
    expect((await call(listTokens, { headers: bearer(other) })).status).toBe(200); // nothing changed
    const changed = await call(changePasswordRoute, {
      method: "POST",
      headers: auth,
      body: { currentPassword: password, newPassword: "another long password" },
    });
    expect(changed.status).toBe(200);
    for (const old of [auth, bearer(other)]) expect((await call(listTokens, { headers: old })).status).toBe(401);
    const fresh = bearer(changed.body.data.token);
    expect((await call(listTokens, { headers: fresh })).status).toBe(200);
    expect((await call(signOutEverywhereRoute, { method: "POST", headers: fresh })).body.data).toEqual({
      signedOut: true,
      apiKeysRevoked: 0,
    });
    expect((await call(listTokens, { headers: fresh })).status).toBe(401);
  });

  it("answers malformed password-change and token bodies with VALIDATION_ERROR, revoking and changing nothing", async () => {
    config();
    const { userId, email, password, auth } = await signUp();
    const [before] = await db().select().from(users).where(eq(users.id, userId));
    for (const body of [
      {},
      { currentPassword: password },
      { currentPassword: password, newPassword: "short" },
      { currentPassword: password, newPassword: password },
      { currentPassword: 7, newPassword: "another long password" },
      "not an object",
    ]) {
      const res = await call(changePasswordRoute, { method: "POST", headers: auth, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
    const [after] = await db().select().from(users).where(eq(users.id, userId));
    expect(after).toMatchObject({ passwordHash: before!.passwordHash, tokenVersion: before!.tokenVersion });
    expect((await call(listTokens, { headers: auth })).status).toBe(200);
    for (const code of [123456, { a: 1 }, "x".repeat(33)]) {
      const res = await call(issueToken, { method: "POST", body: { email, password, code } });
      expect(res.status, JSON.stringify(code)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("refuses a wrong current password and changes nothing", async () => {
    config();
    const { userId, auth } = await signUp();
    await expect(
      changePassword(db(), userId, { currentPassword: "not my password at all", newPassword: "a brand new password" }),
    ).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await call(listTokens, { headers: auth })).status).toBe(200);
  });
});
