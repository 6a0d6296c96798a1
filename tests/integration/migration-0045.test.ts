/**
 * Migration 0045 (refund claim secrets) on a database an older release left: every refund gets its
 * creator — the API key's maker for a refund made with a key, else the member its approval or its
 * audit row names, else the account's owner — and no claim secret, so an old id-only link opens
 * nothing until that creator issues a new one.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/lib/db/client";
import { migrate, readMigrations } from "@/lib/db/migrate";
import { rowsOf } from "@/lib/db/rows";
import { createTestDatabase } from "../helpers/database";

let handle: DatabaseHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

describe("migration 0045 (refund claim secrets)", () => {
  it("records each refund's creator and leaves every old claim without a secret", async () => {
    handle = await createTestDatabase(readMigrations().filter((m) => m.tag < "0045"));
    const { db } = handle;
    const user = async (email: string) =>
      rowsOf<{ id: number }>(await db.execute(sql`insert into users (email, password_hash) values (${email}, 'x') returning id`))[0]!.id;
    const owner = await user("owner@example.com");
    const finance = await user("finance@example.com");
    const developer = await user("developer@example.com");
    // (Each user owns their own account already: a trigger adds that membership.)
    await db.execute(sql`insert into account_members (account_id, user_id, role) values
      (${owner}, ${finance}, 'finance'), (${owner}, ${developer}, 'developer') on conflict do nothing`);
    const [key] = rowsOf<{ id: number }>(
      await db.execute(sql`insert into api_keys (user_id, created_by, name, prefix, key_hash)
        values (${owner}, ${developer}, 'shop', 'bscp_sk_abc', 'hash') returning id`),
    );
    const [token] = rowsOf<{ id: number }>(
      await db.execute(sql`insert into tokens (user_id, network, contract_address, symbol, name, decimals)
        values (${owner}, 'bsc', '0x55d398326f99059fF775485246999027B3197955', 'USDT', 'Tether', 18) returning id`),
    );
    const sessionId = randomUUID();
    await db.execute(sql`insert into payment_sessions
      (id, user_id, token_id, network, chain_id, deposit_index, deposit_address, deposit_topic, amount, forward_to, expires_at)
      values (${sessionId}, ${owner}, ${token!.id}, 'bsc', 56, 1, '0x00000000000000000000000000000000000000aa',
        '0x00000000000000000000000000000000000000000000000000000000000000aa', 10, '0x00000000000000000000000000000000000000bb', now())`);
    const refund = async (apiKeyId: number | null) => {
      const id = randomUUID();
      await db.execute(sql`insert into refunds (id, session_id, user_id, api_key_id, amount, status, claim_expires_at)
        values (${id}, ${sessionId}, ${owner}, ${apiKeyId}, 1, 'awaiting_address', now() + interval '1 day')`);
      return id;
    };
    const byKey = await refund(key!.id);
    const approved = await refund(null);
    const audited = await refund(null);
    const unknown = await refund(null);
    await db.execute(sql`insert into approvals (id, account_id, kind, subject_id, token_id, amount, requested_by_user_id, expires_at)
      values ('apr_1', ${owner}, 'refund', ${approved}, ${token!.id}, 1, ${finance}, now() + interval '3 days')`);
    await db.execute(sql`insert into audit_events (account_id, actor_kind, actor_user_id, actor_label, action, target_type, target_id)
      values (${owner}, 'user', ${finance}, 'finance@example.com', 'refund.requested', 'refund', ${audited})`);

    expect(await migrate(db)).toContain("0045_refund_claim_secrets");
    const rows = rowsOf<{ id: string; created_by: number | null; claim_secret_hash: string | null; approval_on_claim: boolean }>(
      await db.execute(sql`select id, created_by, claim_secret_hash, approval_on_claim from refunds`),
    );
    const of = (id: string) => rows.find((r) => r.id === id);
    expect(of(byKey)?.created_by).toBe(developer);
    expect(of(approved)?.created_by).toBe(finance);
    expect(of(audited)?.created_by).toBe(finance);
    expect(of(unknown)?.created_by).toBe(owner);
    expect(rows.every((r) => r.claim_secret_hash === null && r.approval_on_claim === false)).toBe(true);
    // A secret's hash is 64 hex digits or nothing.
    await expect(db.execute(sql`update refunds set claim_secret_hash = 'not-a-hash' where id = ${byKey}`)).rejects.toThrow();
  }, 120_000);
});
