import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { GET as unknownGet, POST as unknownPost } from "@/app/api/[...path]/route";
import { POST as signIn } from "@/app/api/auth/[...nextauth]/route";
import { DELETE as revokeKey } from "@/app/api/user/api-keys/[id]/route";
import { POST as issueKey } from "@/app/api/user/api-keys/route";
import { POST as register } from "@/app/api/user/register/route";
import { POST as issueToken } from "@/app/api/user/token/route";
import { MAX_LIVE_API_KEYS } from "@/lib/accounts/api-keys/manage-api-keys";
import { apiKeys, users } from "@/lib/db/schema";
import { createUserCommand } from "@/lib/ops/admin/users";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { signUp } from "../helpers/accounts";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { type CallResult, call, fromClient } from "../helpers/http";

const db = useTestDatabase();
const config = (extra: Record<string, string> = {}) =>
  useConfig({ NEXTAUTH_SECRET: "integration-test-secret-0123456789", LOCAL_CHAIN: "off", ...extra });
const from = (ip: string) => fromClient(ip);
const countUsers = async () => (await db().select({ id: users.id }).from(users)).length;

describe("abuse limits outside /api/v1", () => {
  it("meets 30 rapid registrations from one address with 429 RATE_LIMITED and Retry-After; other addresses are unaffected", async () => {
    config();
    await resetRateLimits();
    const statuses: number[] = [];
    let limited: CallResult | undefined;
    for (let i = 0; i < 30; i++) {
      const res = await call(register, {
        method: "POST",
        headers: from("203.0.113.7"),
        body: { email: `flood${i}@example.com`, password: "correct horse battery" },
      });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect(limited!.body.error).toMatchObject({ code: "RATE_LIMITED" });
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The socket's peer counts (TRUSTED_PROXY_HOPS=0): a client cannot dodge the limit with its own X-Forwarded-For.
    const spoofed = await call(register, {
      method: "POST",
      headers: { ...from("203.0.113.7"), "x-forwarded-for": "1.2.3.4" },
      body: { email: "spoof@example.com", password: "correct horse battery" },
    });
    expect(spoofed.status).toBe(429);
    const elsewhere = await call(register, {
      method: "POST",
      headers: from("198.51.100.1"),
      body: { email: "other@example.com", password: "correct horse battery" },
    });
    expect(elsewhere.status).toBe(201);
  });

  it("limits bearer-token and credentials sign-in attempts per address (a shared budget)", async () => {
    config({ LOGIN_RATE_LIMIT_PER_MINUTE: "5" });
    await resetRateLimits();
    const { email } = await signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await call(issueToken, { method: "POST", headers: from("203.0.113.8"), body: { email, password: "wrong password!" } })).status,
      );
    }
    const form = new URLSearchParams({ email, password: "wrong password!", csrfToken: "x", json: "true" });
    const credentials = () =>
      signIn(
        new NextRequest("http://localhost:3000/api/auth/callback/credentials", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...from("203.0.113.8") },
          body: form.toString(),
        }),
        { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) },
      );
    // The budget is spent by the token endpoint: the credentials sign-in is refused before next-auth runs.
    const limited = await credentials();
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = await limited.json();
    expect(body).toMatchObject({
      success: false,
      error: { code: "RATE_LIMITED", reason: "rate-limited" },
      url: "http://localhost:3000/login?error=RateLimited",
    });
    expect(
      (await call(issueToken, { method: "POST", headers: from("203.0.113.8"), body: { email, password: "correct horse battery" } })).status,
    ).toBe(429);
    expect(
      (await call(issueToken, { method: "POST", headers: from("203.0.113.9"), body: { email, password: "correct horse battery" } })).status,
    ).toBe(200);
    config();
  });

  it("turns self sign-up off with REGISTRATION=closed (403 REGISTRATION_CLOSED); the operator's CLI still creates users", async () => {
    config({ REGISTRATION: "closed" });
    const before = await countUsers();
    const res = await call(register, { method: "POST", body: { email: "closed@example.com", password: "correct horse battery" } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "REGISTRATION_CLOSED" });
    expect(await countUsers()).toBe(before);
    const [line] = await createUserCommand(db(), ["ops-made@example.com"]);
    expect(line).toMatch(/^created user \d+ ops-made@example\.com with password \S{16} \(shown once\)$/);
    const password = line!.match(/with password (\S+)/)![1]!;
    expect((await call(issueToken, { method: "POST", body: { email: "ops-made@example.com", password } })).status).toBe(200);
    await expect(createUserCommand(db(), ["ops-made@example.com", "--password", "another long one"])).rejects.toThrow(/already exists/);
    await expect(createUserCommand(db(), ["not-an-email"])).rejects.toThrow(/not a valid address/);
    await expect(createUserCommand(db(), ["x@example.com", "--password", "short"])).rejects.toThrow(/at least 10 characters/);
    config();
  });

  it("holds at most 25 live API keys per user, also under a burst; revoking one frees a slot", async () => {
    config();
    const { auth, userId } = await signUp();
    const created = await Promise.all(
      Array.from({ length: MAX_LIVE_API_KEYS + 5 }, (_, i) => call(issueKey, { method: "POST", headers: auth, body: { name: `k${i}` } })),
    );
    expect(created.filter((r) => r.status === 201)).toHaveLength(MAX_LIVE_API_KEYS);
    const refused = created.find((r) => r.status === 400)!;
    expect(refused.body.error.message).toContain("25 live API keys");
    const live = (await db().select().from(apiKeys)).filter((k) => k.userId === userId && !k.revokedAt);
    expect(live).toHaveLength(MAX_LIVE_API_KEYS);
    await call(revokeKey, { method: "DELETE", headers: auth, params: { id: String(live[0]!.id) } });
    expect((await call(issueKey, { method: "POST", headers: auth, body: { name: "after revoke" } })).status).toBe(201);
  });

  it("answers every unknown path under /api with the JSON envelope, 404 NOT_FOUND", async () => {
    for (const handler of [unknownGet, unknownPost]) {
      const res = await handler(
        new Request("http://localhost:3000/api/v1/payment/abc/refund", { method: handler === unknownGet ? "GET" : "POST" }),
      );
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
    }
  });
});
