/**
 * GET /api/user/audit and the dashboard's CSV of the audit log: the answer's shape,
 * VALIDATION_ERROR for every bad parameter, one account's rows only, and a CSV that holds every
 * matching row with spreadsheet formulas neutralised. PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as audit } from "@/app/api/user/audit/route";
import { GET as openapi } from "@/app/api/v1/openapi.json/route";
import { apiKeyActor, userActor } from "@/lib/accounts/audit/actor";
import { auditFiltersSchema } from "@/lib/accounts/audit/audit-query";
import { recordAudit } from "@/lib/accounts/audit/record-audit";
import { issueBearerToken } from "@/lib/accounts/auth/bearer-token";
import { encodeCursor } from "@/lib/base/cursor";
import { users } from "@/lib/db/schema";
import { AUDIT_CSV_COLUMNS, auditCsvStream } from "@/lib/web/dashboard/audit/audit-log";
import { useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { bearer, call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });

type Account = { userId: number; email: string; auth: Record<string, string> };
let mine: Account;
let theirs: Account;
let made = 0;

/** An account whose log holds only what a test writes: inserted, with a bearer token, never signed in. */
async function quietAccount(): Promise<Account> {
  const email = `audit-${++made}-${Date.now()}@example.com`;
  const [user] = await db().insert(users).values({ email, passwordHash: "x" }).returning();
  return { userId: user!.id, email, auth: bearer((await issueBearerToken(user!)).token) };
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  mine = await quietAccount();
  theirs = await quietAccount();
  const me = { id: mine.userId, email: mine.email };
  await recordAudit(db(), { accountId: mine.userId, actor: userActor(me), address: "198.51.100.4", action: "auth.sign_in" });
  await recordAudit(db(), {
    accountId: mine.userId,
    actor: userActor(me),
    address: "198.51.100.4",
    action: "domain.webhook_changed",
    target: { type: "domain", id: 3 },
    before: { webhookUrl: null },
    after: { webhookUrl: '=HYPERLINK("https://evil.test")', webhookSecret: "whsec_secret" },
  });
  await recordAudit(db(), {
    accountId: mine.userId,
    actor: apiKeyActor({ id: 41, name: "=cmd|' /C calc'!A0", prefix: "bscp_live_q" }),
    address: null,
    action: "withdrawal.requested",
    target: { type: "withdrawal", id: "0b7c5c3e-2a8f-4a8e-9d7e-3f3a1c1b2d4e" },
    after: { amount: "1.5", toAddress: "0x1111111111111111111111111111111111111111" },
  });
  await recordAudit(db(), {
    accountId: theirs.userId,
    actor: userActor({ id: theirs.userId, email: theirs.email }),
    address: null,
    action: "auth.sign_in",
  });
});

describe("GET /api/user/audit", () => {
  it("answers {items, nextCursor}, newest first, in the documented shape", async () => {
    const res = await call(audit, { headers: mine.auth });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(["items", "nextCursor"]);
    const { items, nextCursor } = res.body.data;
    expect(nextCursor).toBeNull();
    expect(items.map((i: { action: string }) => i.action)).toEqual(["withdrawal.requested", "domain.webhook_changed", "auth.sign_in"]);
    expect(items[0]).toEqual({
      id: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      actor: { kind: "api_key", apiKeyId: 41, label: "=cmd|' /C calc'!A0 (bscp_live_q…)" },
      address: null,
      action: "withdrawal.requested",
      target: { type: "withdrawal", id: "0b7c5c3e-2a8f-4a8e-9d7e-3f3a1c1b2d4e" },
      before: null,
      after: { amount: "1.5", toAddress: "0x1111111111111111111111111111111111111111" },
    });
    expect(items[1]).toMatchObject({
      actor: { kind: "user", userId: mine.userId, label: mine.email },
      address: "198.51.100.4",
      target: { type: "domain", id: "3" },
      before: { webhookUrl: null },
      after: { webhookSecret: "[redacted]" },
    });
    expect(items[2].target).toBeNull();
  });

  it("pages by cursor and filters by action, actor and dates", async () => {
    const first = await call(audit, { headers: mine.auth, path: "/?limit=2" });
    expect(first.body.data.items).toHaveLength(2);
    const second = await call(audit, { headers: mine.auth, path: `/?limit=2&cursor=${first.body.data.nextCursor}` });
    expect(second.body.data.items.map((i: { action: string }) => i.action)).toEqual(["auth.sign_in"]);
    expect(second.body.data.nextCursor).toBeNull();
    const byAction = await call(audit, { headers: mine.auth, path: "/?action=auth.sign_in" });
    expect(byAction.body.data.items).toHaveLength(1);
    const byKey = await call(audit, { headers: mine.auth, path: "/?actor=api_key:41" });
    expect(byKey.body.data.items.map((i: { action: string }) => i.action)).toEqual(["withdrawal.requested"]);
    const byUser = await call(audit, { headers: mine.auth, path: `/?actor=user:${mine.userId}` });
    expect(byUser.body.data.items).toHaveLength(2);
    const today = new Date().toISOString().slice(0, 10);
    const inRange = await call(audit, { headers: mine.auth, path: `/?from=${today}&to=${today}` });
    expect(inRange.body.data.items).toHaveLength(3);
    const past = await call(audit, { headers: mine.auth, path: "/?from=2020-01-01T00:00:00Z&to=2020-01-02" });
    expect(past.body.data.items).toEqual([]);
  });

  it("never shows another account's rows, whatever the filter", async () => {
    const res = await call(audit, { headers: theirs.auth, path: `/?actor=user:${mine.userId}` });
    expect(res.body.data.items).toEqual([]);
    const all = await call(audit, { headers: theirs.auth });
    expect(all.body.data.items.map((i: { actor: { userId: number } }) => i.actor.userId)).toEqual([theirs.userId]);
  });

  it("answers VALIDATION_ERROR for a bad cursor, date, actor, action or limit", async () => {
    const uuidCursor = encodeCursor({ createdAt: "2026-11-01T00:00:00.000000Z", id: "6f1c2d7e-8c1a-4e55-9f0b-1f2a3b4c5d6e" });
    for (const query of [
      "cursor=not-a-cursor!",
      `cursor=${uuidCursor}`,
      "from=2026-02-30",
      "from=yesterday",
      "to=2026-11-01T00:00:00",
      "from=2026-11-02&to=2026-11-01",
      "actor=user:abc",
      "actor=admin",
      "action=auth.sign_out",
      "limit=0",
      "limit=101",
    ]) {
      const res = await call(audit, { headers: mine.auth, path: `/?${query}` });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe("VALIDATION_ERROR");
    }
  });

  it("is in the OpenAPI document with its query parameters", async () => {
    const doc = await openapi().json();
    const parameters: { in?: string; name?: string; $ref?: string }[] = doc.paths["/api/user/audit"].get.parameters;
    const names = parameters
      .filter((p) => p.in === "query")
      .map((p) => p.name)
      .sort();
    expect(names).toEqual(["action", "actor", "cursor", "from", "limit", "to"]);
    expect(parameters).toContainEqual({ $ref: "#/components/parameters/AccountId" });
  });

  it("refuses a caller who is not signed in", async () => {
    expect((await call(audit)).status).toBe(401);
  });
});

describe("audit CSV", () => {
  async function csv(filters: Record<string, string>, batch?: number): Promise<string> {
    return new Response(auditCsvStream(db(), mine.userId, auditFiltersSchema.parse(filters).filters, batch)).text();
  }

  it("holds every matching row across batches, newest first, formulas neutralised, secrets absent", async () => {
    const text = await csv({}, 2);
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(",withdrawal.requested,api_key,,41,'=cmd|' /C calc'!A0 (bscp_live_q…),,withdrawal,");
    expect(lines[2]).toContain(`,domain.webhook_changed,user,${mine.userId},,${mine.email},198.51.100.4,domain,3,"{""webhookUrl"":null}",`);
    expect(lines[2]).toContain('""webhookSecret"":""[redacted]""');
    expect(text).not.toContain("whsec_secret");
    expect(lines[3]).toContain(",auth.sign_in,");
    expect(text).not.toContain(theirs.email);
  });

  it("applies the page's filters", async () => {
    const lines = (await csv({ action: "auth.sign_in" })).trimEnd().split("\r\n");
    expect(lines).toHaveLength(2);
    expect((await csv({ actor: "system" })).trimEnd().split("\r\n")).toHaveLength(1);
  });
});
