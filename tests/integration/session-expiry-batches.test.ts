import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/lib/db/client";
import { paymentSessions } from "@/lib/db/schema";
import { expireSessionsWhere } from "@/lib/domain/payments/session-records";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { TEST_MNEMONIC } from "../helpers/config";
import { createTestDatabase } from "../helpers/database";

/** A backlog of due sessions (after downtime) expires whole, a bounded batch per transaction, each once. */
const keys = keyRingFor(TEST_MNEMONIC);
const DUE = 1_203;
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
  const q = (query: ReturnType<typeof sql>) => handle.db.execute(query);
  await q(sql`insert into users (id, email, password_hash) overriding system value values (1, 'm@example.com', 'x')`);
  await q(sql`insert into domains (id, user_id, origin) overriding system value values (1, 1, 'https://shop.example')`);
  await q(sql`insert into tokens (id, user_id, network, contract_address, symbol, name, decimals) overriding system value
    values (1, 1, 'bsc', '0x55d398326f99059fF775485246999027B3197955', 'USDT', 'Tether', 18)`);
  const target = keys.depositAddress(0);
  await q(sql`insert into payment_sessions (id, user_id, domain_id, token_id, network, chain_id, deposit_index, deposit_address, deposit_topic, amount, forward_to, expires_at)
    select gen_random_uuid(), 1, 1, 1, 'bsc', 56, i, 'addr-' || i, 'topic-' || i, 10, ${target},
      case when i <= ${DUE} then now() - interval '1 minute' else now() + interval '1 hour' end
    from generate_series(1, ${DUE + 5}) as i`);
});

afterAll(async () => {
  await handle?.close();
});

describe("expiring a backlog of due sessions", () => {
  it("expires every due session (more than one batch) and no other, once each", async () => {
    const expired = await expireSessionsWhere(handle.db, undefined);
    expect(expired).toHaveLength(DUE);
    const statuses = await handle.db.select({ status: paymentSessions.status }).from(paymentSessions);
    expect(statuses.filter((s) => s.status === "expired")).toHaveLength(DUE);
    expect(statuses.filter((s) => s.status === "pending")).toHaveLength(5);
    expect(await expireSessionsWhere(handle.db, undefined)).toEqual([]);
  });
});
