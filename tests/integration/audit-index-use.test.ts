/**
 * Every read of the audit log the API and the dashboard offer is served by an index that starts
 * with the account (docs/design.md §25): each statement is EXPLAINed on PostgreSQL with sequential
 * scans off, so a Seq Scan left in a plan is one no index can serve. PostgreSQL only
 * (TEST_DATABASE_URL); audit-log.test.ts runs the same reads on both drivers.
 */
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuditPageQuery, auditPage } from "@/lib/accounts/audit/list-audit";
import type { DatabaseHandle, Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import * as schema from "@/lib/db/schema";
import { createTestDatabase } from "../helpers/database";

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("audit log index use on PostgreSQL", () => {
  let handle: DatabaseHandle & { url?: string };
  let explainer: postgres.Sql;
  let logged: Db;
  let account = 0;
  const statements: { sql: string; params: unknown[] }[] = [];

  beforeAll(async () => {
    handle = await createTestDatabase();
    const ids = rowsOf<{ id: number }>(
      await handle.db.execute(
        sql`insert into users (email, password_hash) select 'u' || g || '@audit.test', 'x' from generate_series(1, 4) g returning id`,
      ),
    ).map((r) => r.id);
    account = ids[0]!;
    await handle.db.execute(sql`insert into audit_events (account_id, at, actor_kind, actor_user_id, actor_api_key_id, actor_label, action)
      select (${sql.raw(`array[${ids.join(",")}]`)})[1 + g % 4], now() - g * interval '1 minute',
        case when g % 3 = 0 then 'api_key' when g % 7 = 0 then 'system' else 'user' end,
        case when g % 3 = 0 or g % 7 = 0 then null else 1 + g % 4 end, case when g % 3 = 0 then g % 11 else null end,
        'someone', (array['auth.sign_in','api_key.created','withdrawal.requested','domain.webhook_changed'])[1 + g % 13 % 4]
      from generate_series(1, 40000) g`);
    await handle.db.execute(sql`analyze audit_events`);
    logged = drizzle(postgres(handle.url!, { max: 1, onnotice: () => {} }), {
      schema,
      logger: { logQuery: (query, params) => statements.push({ sql: query, params }) },
    }) as unknown as Db;
    explainer = postgres(handle.url!, { max: 1, onnotice: () => {}, connection: { enable_seqscan: "off" } });
  });
  afterAll(async () => {
    await explainer?.end();
    await handle?.close();
  });

  async function scansOf(query: AuditPageQuery): Promise<string[]> {
    statements.length = 0;
    await auditPage(logged, account, query);
    const scans: string[] = [];
    for (const s of statements) {
      for (const row of await explainer.unsafe(`explain ${s.sql}`, s.params as never[])) {
        const line = String(row["QUERY PLAN"]);
        const seq = /Seq Scan on (\S+)/.exec(line);
        const index = /(?:Bitmap )?Index (?:Only )?Scan(?: Backward)?(?: using| on) (\S+)/.exec(line);
        if (seq) scans.push(`Seq Scan on ${seq[1]}`);
        else if (index) scans.push(index[1]!);
      }
    }
    return scans;
  }

  it("serves each filter from an index that starts with the account", async () => {
    const from = new Date(Date.now() - 3 * 86_400_000);
    const cases: [AuditPageQuery, string][] = [
      [{ limit: 25 }, "audit_events_account_at_idx"],
      [{ limit: 25, action: "withdrawal.requested" }, "audit_events_account_action_at_idx"],
      [{ limit: 25, actorUserId: 1 }, "audit_events_account_actor_user_at_idx"],
      [{ limit: 25, actorApiKeyId: 5 }, "audit_events_account_actor_key_at_idx"],
      [{ limit: 25, from, to: new Date() }, "audit_events_account_at_idx"],
    ];
    for (const [query, index] of cases) {
      const scans = await scansOf(query);
      expect(
        scans.filter((s) => s.startsWith("Seq Scan")),
        JSON.stringify(query),
      ).toEqual([]);
      expect(scans, JSON.stringify(query)).toContain(index);
    }
  });
});
