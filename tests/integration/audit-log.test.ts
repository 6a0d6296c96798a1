/**
 * The audit log (docs/design.md §24): rows are written inside the caller's transaction,
 * secrets never reach them, the database refuses to change or remove one, and the list pages by
 * keyset newest first with its filters, one account at a time. Runs on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiKeyActor, systemActor, userActor } from "@/lib/accounts/audit/actor";
import { auditPage, listAudit } from "@/lib/accounts/audit/list-audit";
import { recordAudit } from "@/lib/accounts/audit/record-audit";
import { REDACTED } from "@/lib/accounts/audit/redact";
import { encodeCursor } from "@/lib/base/cursor";
import { AppError } from "@/lib/base/errors";
import { rowsOf } from "@/lib/db/rows";
import { auditEvents, users } from "@/lib/db/schema";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();

async function newAccount(email = `a${Date.now()}${Math.random()}@audit.test`) {
  const [row] = rowsOf<{ id: number; email: string }>(
    await db().execute(sql`insert into users (email, password_hash) values (${email}, 'x') returning id, email`),
  );
  return row!;
}

/** Why a statement failed, PostgreSQL's message included (drizzle wraps it on one driver, not the other). */
async function failure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return `${String(error)} ${cause ? String(cause) : ""}`;
  }
  throw new Error("expected the statement to fail");
}

describe("recordAudit", () => {
  it("writes the actor, action, target and change, with the label copied", async () => {
    const account = await newAccount();
    const row = await recordAudit(db(), {
      accountId: account.id,
      actor: userActor(account),
      address: "203.0.113.7",
      action: "domain.payout_target_changed",
      target: { type: "domain", id: 12 },
      before: { payoutAddress: null },
      after: { payoutAddress: "0xabc" },
    });
    expect(row).toMatchObject({
      accountId: account.id,
      actorKind: "user",
      actorUserId: account.id,
      actorApiKeyId: null,
      actorLabel: account.email,
      address: "203.0.113.7",
      action: "domain.payout_target_changed",
      targetType: "domain",
      targetId: "12",
      before: { payoutAddress: null },
      after: { payoutAddress: "0xabc" },
    });
    const key = await recordAudit(db(), {
      accountId: account.id,
      actor: apiKeyActor({ id: 9, name: "shop", prefix: "bscp_live_ab" }),
      address: null,
      action: "withdrawal.requested",
    });
    expect(key).toMatchObject({ actorKind: "api_key", actorApiKeyId: 9, actorUserId: null, actorLabel: "shop (bscp_live_ab…)" });
    expect(key.targetType).toBeNull();
    expect(key.before).toBeNull();
  });

  it("stores no secret: fields named like one are redacted at any depth, ids and labels stay", async () => {
    const account = await newAccount();
    const row = await recordAudit(db(), {
      accountId: account.id,
      actor: userActor(account),
      address: null,
      action: "api_key.created",
      before: { password: "hunter2", passwordHash: "scrypt$…" },
      after: {
        name: "backend",
        apiKeyId: 4,
        tokenId: 2,
        keyPrefix: "bscp_live_x",
        key: "bscp_live_secret",
        apiKey: "bscp_live_secret",
        code: "123456",
        token: "eyJhbGciOi",
        webhookSecret: "whsec_1",
        totp_secret: "JBSWY3DP",
        mnemonic: "legal winner thank",
        nested: { recoveryCodes: ["a", "b"], secret_key: "s", items: [{ accessToken: "t", amount: "5" }] },
      },
    });
    expect(row.before).toEqual({ password: REDACTED, passwordHash: REDACTED });
    expect(row.after).toEqual({
      name: "backend",
      apiKeyId: 4,
      tokenId: 2,
      keyPrefix: "bscp_live_x",
      key: REDACTED,
      apiKey: REDACTED,
      code: REDACTED,
      token: REDACTED,
      webhookSecret: REDACTED,
      totp_secret: REDACTED,
      mnemonic: REDACTED,
      nested: { recoveryCodes: ["a", "b"], secret_key: REDACTED, items: [{ accessToken: REDACTED, amount: "5" }] },
    });
    const stored = JSON.stringify(await db().select().from(auditEvents).where(eq(auditEvents.id, row.id)));
    for (const secret of ["hunter2", "bscp_live_secret", "123456", "eyJhbGciOi", "whsec_1", "JBSWY3DP", "legal winner"]) {
      expect(stored).not.toContain(secret);
    }
  });

  it("refuses a before/after that is a document, not a change", async () => {
    const account = await newAccount();
    await expect(
      recordAudit(db(), {
        accountId: account.id,
        actor: systemActor(),
        address: null,
        action: "account.settings_changed",
        after: { blob: "x".repeat(9000) },
      }),
    ).rejects.toThrow(/over 8192 bytes/);
  });

  it("commits and rolls back with the caller's transaction", async () => {
    const account = await newAccount();
    await db()
      .transaction(async (tx) => {
        await recordAudit(tx, { accountId: account.id, actor: userActor(account), address: null, action: "password.changed" });
        throw new Error("the change failed");
      })
      .catch(() => {});
    expect((await listAudit(db(), account.id, { limit: 10 })).items).toEqual([]);
    await db().transaction(async (tx) => {
      await recordAudit(tx, { accountId: account.id, actor: userActor(account), address: null, action: "password.changed" });
    });
    expect((await listAudit(db(), account.id, { limit: 10 })).items.map((i) => i.action)).toEqual(["password.changed"]);
  });
});

describe("append-only", () => {
  let account: { id: number; email: string };
  let id: number;
  beforeAll(async () => {
    account = await newAccount();
    id = (await recordAudit(db(), { accountId: account.id, actor: userActor(account), address: null, action: "auth.sign_in" })).id;
  });

  it("refuses UPDATE, DELETE and TRUNCATE, and the row stays as written", async () => {
    expect(await failure(() => db().update(auditEvents).set({ action: "password.changed" }).where(eq(auditEvents.id, id)))).toMatch(
      /append-only: UPDATE refused/,
    );
    expect(await failure(() => db().delete(auditEvents).where(eq(auditEvents.id, id)))).toMatch(/append-only: DELETE refused/);
    expect(await failure(() => db().execute(sql`truncate audit_events`))).toMatch(/append-only: TRUNCATE refused/);
    const [row] = await db().select().from(auditEvents).where(eq(auditEvents.id, id));
    expect(row?.action).toBe("auth.sign_in");
  });

  it("keeps an account with a history from being deleted (RESTRICT), while one without can go", async () => {
    expect(await failure(() => db().delete(users).where(eq(users.id, account.id)))).toMatch(
      /foreign key|audit_events_account_id_users_id_fk/,
    );
    const fresh = await newAccount();
    await db().delete(users).where(eq(users.id, fresh.id));
    expect(await db().select().from(users).where(eq(users.id, fresh.id))).toEqual([]);
  });

  it("refuses an actor kind outside user, api_key, system", async () => {
    expect(
      await failure(() =>
        db().insert(auditEvents).values({ accountId: account.id, actorKind: "robot", actorLabel: "x", action: "auth.sign_in" }),
      ),
    ).toMatch(/audit_events_actor_kind_check|check constraint/);
  });
});

describe("listAudit", () => {
  let account: { id: number; email: string };
  let other: { id: number; email: string };
  const N = 23;
  beforeAll(async () => {
    account = await newAccount();
    other = await newAccount();
    // Pairs share an instant to the microsecond: the cursor must order by id within it.
    await db().execute(sql`insert into audit_events (account_id, at, actor_kind, actor_user_id, actor_api_key_id, actor_label, action)
      select ${account.id}, timestamptz '2026-11-01 00:00:00.000001+00' + (g / 2) * interval '1 hour',
        case when g % 3 = 0 then 'api_key' when g % 5 = 0 then 'system' else 'user' end,
        case when g % 3 = 0 or g % 5 = 0 then null else ${account.id}::integer end,
        case when g % 3 = 0 then 7 else null end,
        'someone', case when g % 4 = 0 then 'api_key.created' else 'auth.sign_in' end
      from generate_series(1, ${N}) g`);
    await recordAudit(db(), { accountId: other.id, actor: userActor(other), address: null, action: "api_key.created" });
  });

  it("walks every row once, newest first, by nextCursor; another account's rows never appear", async () => {
    const seen: number[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await listAudit(db(), account.id, { limit: 10, cursor });
      sizes.push(page.items.length);
      seen.push(...page.items.map((r) => r.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(sizes).toEqual([10, 10, 3]);
    expect(new Set(seen).size).toBe(N);
    const rows = await db().select({ id: auditEvents.id }).from(auditEvents).where(eq(auditEvents.accountId, other.id));
    expect(seen).not.toContain(rows[0]!.id);
    const all = (await listAudit(db(), account.id, { limit: 100 })).items;
    const keys = all.map((r) => [r.at, r.id] as const);
    expect(keys).toEqual([...keys].sort((x, y) => (x[0] === y[0] ? y[1] - x[1] : x[0] < y[0] ? 1 : -1)));
    expect(all.map((r) => r.id)).toEqual(seen);
  });

  it("pages back with before (the dashboard's Newer)", async () => {
    const first = await auditPage(db(), account.id, { limit: 10 });
    const second = await auditPage(db(), account.id, { limit: 10, after: first.older! });
    const back = await auditPage(db(), account.id, { limit: 10, before: second.newer! });
    expect(back.items.map((r) => r.id)).toEqual(first.items.map((r) => r.id));
    expect(back.newer).toBeNull();
  });

  it("filters by action, actor and time range, across pages", async () => {
    const created = await listAudit(db(), account.id, { limit: 100, action: "api_key.created" });
    expect(created.items).toHaveLength(5);
    expect(created.items.every((r) => r.action === "api_key.created")).toBe(true);
    const byKey = await listAudit(db(), account.id, { limit: 4, actorApiKeyId: 7 });
    const byKey2 = await listAudit(db(), account.id, { limit: 4, actorApiKeyId: 7, cursor: byKey.nextCursor! });
    expect([...byKey.items, ...byKey2.items].map((r) => r.actor)).toEqual(
      Array.from({ length: 7 }, () => ({ kind: "api_key", apiKeyId: 7, label: "someone" })),
    );
    const byUser = await listAudit(db(), account.id, { limit: 100, actorUserId: account.id });
    expect(byUser.items.every((r) => r.actor.kind === "user" && r.actor.userId === account.id)).toBe(true);
    expect(byUser.items).toHaveLength(N - 7 - 3);
    const system = await listAudit(db(), account.id, { limit: 100, actorKind: "system" });
    expect(system.items.map((r) => r.actor)).toEqual(Array.from({ length: 3 }, () => ({ kind: "system", label: "someone" })));
    // g / 2 hours after the start: g = 2..5 fall in [01:00, 03:00).
    const range = await listAudit(db(), account.id, {
      limit: 100,
      from: new Date("2026-11-01T01:00:00Z"),
      to: new Date("2026-11-01T03:00:00Z"),
    });
    expect(range.items).toHaveLength(4);
  });

  it("refuses a cursor it did not hand out, and one of another list's kind", async () => {
    for (const cursor of [
      "garbage!",
      encodeCursor({ createdAt: "2026-11-01T00:00:00.000000Z", id: "6f1c2d7e-8c1a-4e55-9f0b-1f2a3b4c5d6e" }),
    ]) {
      const error = await listAudit(db(), account.id, { limit: 10, cursor }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("VALIDATION_ERROR");
    }
  });
});
