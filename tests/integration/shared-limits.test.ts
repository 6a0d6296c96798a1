import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as changePasswordRoute } from "@/app/api/user/password/route";
import { POST as register } from "@/app/api/user/register/route";
import { consumeLimit, LINK_PAYMENTS_PER_MINUTE } from "@/lib/accounts/abuse/limits";
import { verifyCredentials } from "@/lib/accounts/auth/verify-credentials";
import { setDatabase } from "@/lib/db";
import { type DatabaseHandle, openPostgres } from "@/lib/db/client";
import { abuseCounters } from "@/lib/db/schema";
import { clientAddress } from "@/lib/web/http/client-ip";
import { installPeerStamp } from "@/lib/web/http/peer-address";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { signUp } from "../helpers/accounts";
import { useConfig } from "../helpers/config";
import { createTestDatabase } from "../helpers/database";
import { call, fromClient } from "../helpers/http";

/**
 * The security counters live in PostgreSQL: two instances (two connection pools on one database,
 * as two servers would hold) count the same hits, and the client is who the socket says unless
 * TRUSTED_PROXY_HOPS names proxies.
 */
let first: DatabaseHandle & { url?: string };
let second: DatabaseHandle;
const config = (extra: Record<string, string> = {}) =>
  useConfig({ NEXTAUTH_SECRET: "integration-test-secret-0123456789", LOCAL_CHAIN: "off", REGISTER_RATE_LIMIT_PER_HOUR: "3", ...extra });
let n = 0;
const signUpFrom = (headers: Record<string, string>) =>
  call(register, { method: "POST", headers, body: { email: `shared${++n}@example.com`, password: "correct horse battery" } });

beforeAll(async () => {
  first = await createTestDatabase();
  // PGlite is one process's database: there the "second instance" shares the handle.
  second = first.url ? openPostgres(first.url, { max: 2 }) : first;
  setDatabase(first);
});
afterAll(async () => {
  if (second !== first) await second.close();
  await first.close();
});
beforeEach(async () => {
  config();
  await resetRateLimits();
});

describe("security counters shared by every instance", () => {
  it("link Pay: hits spread over two instances share one limit, and a fresh process forgets none", async () => {
    const instances = [first.db, second.db];
    for (let i = 0; i < LINK_PAYMENTS_PER_MINUTE; i++) await consumeLimit(instances[i % 2]!, "linkPay", "203.0.113.50");
    for (const db of instances) await expect(consumeLimit(db, "linkPay", "203.0.113.50")).rejects.toMatchObject({ code: "RATE_LIMITED" });
    // A "restart": the process's in-memory limiters are emptied; the counter is in the database.
    const rows = await first.db.select().from(abuseCounters);
    expect(rows.find((r) => r.key === "linkPay:203.0.113.50")?.hits).toBe(LINK_PAYMENTS_PER_MINUTE + 2);
    await expect(consumeLimit(second.db, "linkPay", "203.0.113.51")).resolves.toBeUndefined();
  });

  it("sign-in failures of one account counted on two instances lock it on both", async () => {
    const { email } = await signUp();
    for (let i = 0; i < 10; i++) {
      await expect(verifyCredentials(i % 2 ? second.db : first.db, email, "wrong password!!")).rejects.toMatchObject({
        code: "UNAUTHORIZED",
      });
    }
    await expect(verifyCredentials(first.db, email, "correct horse battery")).rejects.toMatchObject({ code: "RATE_LIMITED" });
    await expect(verifyCredentials(second.db, email, "correct horse battery")).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });

  it("counts a password guess before checking it: 50 concurrent wrong passwords on two instances check at most 10", async () => {
    const { email } = await signUp();
    // Under the limit the right password still signs in (and clears the count).
    await expect(verifyCredentials(first.db, email, "wrong password!!")).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(verifyCredentials(second.db, email, "correct horse battery")).resolves.toMatchObject({ email });
    const answers = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => verifyCredentials(i % 2 ? second.db : first.db, email, `wrong password ${i}`)),
    );
    const codes = answers.map((a) => (a.status === "rejected" ? (a.reason as { code?: string }).code : "signed in"));
    expect(codes.filter((c) => c === "UNAUTHORIZED").length).toBeLessThanOrEqual(10);
    expect(codes.filter((c) => c === "RATE_LIMITED").length).toBeGreaterThanOrEqual(40);
    await expect(verifyCredentials(first.db, email, "correct horse battery")).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });

  it("throttles the current-password check of change password like sign-in", async () => {
    const { auth, email } = await signUp();
    const change = (currentPassword: string) =>
      call(changePasswordRoute, { method: "POST", headers: auth, body: { currentPassword, newPassword: "a brand new password" } });
    for (let i = 0; i < 10; i++) expect((await change(`wrong guess ${i}!`)).status).toBe(400);
    const limited = await change("correct horse battery");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(800);
    // The same account's sign-in waits too: guesses here and there share one budget.
    await expect(verifyCredentials(first.db, email, "correct horse battery")).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });
});

describe("who the client is", () => {
  it("TRUSTED_PROXY_HOPS=0: a direct client's X-Forwarded-For does not dodge the limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await signUpFrom({ ...fromClient("203.0.113.60"), "x-forwarded-for": `6.6.6.${i}` })).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
    expect((await signUpFrom(fromClient("203.0.113.61"))).status).toBe(201);
  });

  it("TRUSTED_PROXY_HOPS=1: the proxy's entry (the rightmost) counts, whatever the client wrote before it", async () => {
    config({ TRUSTED_PROXY_HOPS: "1" });
    const viaProxy = (forwarded: string) => signUpFrom({ ...fromClient("10.0.0.1"), "x-forwarded-for": forwarded });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await viaProxy(`6.6.6.${i}, 203.0.113.70`)).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    // Another client behind the same proxy has its own budget (the proxy's address is not the key).
    expect((await viaProxy("203.0.113.71")).status).toBe(201);
  });

  it("keys IPv6 clients by their /64: two addresses of one /64 share a limit, another /64 does not", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await signUpFrom(fromClient(`2001:db8:aa:bb::${i + 1}`))).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect((await signUpFrom(fromClient("2001:db8:aa:bb:ffff:ffff:ffff:ffff"))).status).toBe(429);
    expect((await signUpFrom(fromClient("2001:db8:aa:bc::1"))).status).toBe(201);
  });

  it("the server stamps each request with its socket's peer, overwriting a stamp the client sent", async () => {
    installPeerStamp();
    const server = http.createServer((req, res) => {
      const headers = new Headers(Object.entries(req.headers).map(([k, v]) => [k, String(v)] as [string, string]));
      res.end(clientAddress(headers, 0));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const seen = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { "x-bsc-pay-peer": "forged 6.6.6.6", "x-forwarded-for": "6.6.6.7" },
      }).then((r) => r.text());
      expect(seen).toBe("127.0.0.1");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
