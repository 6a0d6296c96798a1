import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/lib/db/client";
import { migrate, readMigrations } from "@/lib/db/migrate";
import { rowsOf } from "@/lib/db/rows";
import { users } from "@/lib/db/schema";
import { storedResponse } from "@/lib/domain/idempotency/idempotency";
import { REFUND_SCOPE } from "@/lib/domain/refunds/refund-payouts";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { TEST_MNEMONIC } from "../helpers/config";
import { createTestDatabase } from "../helpers/database";

/**
 * Migration 0025 replaces the dashboard forms' client_request_id columns with user-owned idempotency
 * records: a form sent just before the upgrade and sent again just after replays its refund instead
 * of creating a second one. Older ids (a form lives seconds) are not carried over.
 */
const BEFORE = readMigrations().filter((m) => m.tag < "0025");
const keys = keyRingFor(TEST_MNEMONIC);
const RECENT = randomUUID();
const OLD = randomUUID();
let handle: DatabaseHandle;
const q = (query: ReturnType<typeof sql>) => handle.db.execute(query);

beforeAll(async () => {
  handle = await createTestDatabase(BEFORE);
  await q(sql`insert into users (id, email, password_hash) overriding system value values (1, 'old@example.com', 'x')`);
  await q(sql`insert into domains (id, user_id, origin) overriding system value values (1, 1, 'https://shop.example')`);
  await q(sql`insert into tokens (id, user_id, network, contract_address, symbol, name, decimals) overriding system value
    values (1, 1, 'bsc', '0x55d398326f99059fF775485246999027B3197955', 'USDT', 'Tether', 18)`);
  const session = randomUUID();
  await q(sql`insert into payment_sessions (id, user_id, token_id, network, chain_id, deposit_index, deposit_address, deposit_topic, amount, forward_to, expires_at)
    values (${session}, 1, 1, 'bsc', 56, 1, ${keys.depositAddress(1)}, '0x1', 10, ${keys.depositAddress(2)}, now())`);
  await q(sql`insert into refunds (id, session_id, user_id, amount, status, claim_expires_at, client_request_id)
    values (${RECENT}, ${session}, 1, 1, 'awaiting_address', now() + interval '1 day', 'form-recent')`);
  await q(sql`insert into refunds (id, session_id, user_id, amount, status, claim_expires_at, client_request_id, created_at)
    values (${OLD}, ${session}, 1, 1, 'cancelled', now() + interval '1 day', 'form-old', now() - interval '3 days')`);
  await migrate(handle.db);
});

afterAll(async () => {
  await handle?.close();
});

describe("migration 0025 (one idempotency)", () => {
  it("carries a form sent in the last day over as the user's idempotency key, so its resubmit replays", async () => {
    const [user] = await handle.db.select().from(users).where(eq(users.id, 1));
    expect(user).toBeDefined();
    const replay = await storedResponse<{ refundId: string }>(handle.db, {
      owner: { userId: 1 },
      scope: REFUND_SCOPE,
      key: "form-recent",
      body: null,
    });
    expect(replay?.body.refundId).toBe(RECENT);
    const old = await storedResponse(handle.db, { owner: { userId: 1 }, scope: REFUND_SCOPE, key: "form-old", body: null });
    expect(old).toBeNull();
    const columns = rowsOf<{ column_name: string }>(
      await q(sql`select column_name from information_schema.columns where table_name = 'refunds' and column_name = 'client_request_id'`),
    );
    expect(columns).toEqual([]);
  });
});
