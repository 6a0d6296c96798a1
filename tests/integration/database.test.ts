import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openPglite, openPostgres } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { migrate, readMigrations } from "@/lib/db/migrate";
import { rowsOf } from "@/lib/db/rows";
import { apiKeys, deposits, paymentSessions, plans, tokens, users } from "@/lib/db/schema";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();
const MAX_UINT256 = 2n ** 256n - 1n;

describe("migrations", () => {
  it("create every table of the schema", async () => {
    const tables = rowsOf<{ table_name: string }>(
      await db().execute(sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`),
    ).map((r) => r.table_name);
    expect(tables).toEqual([
      "abuse_counters",
      "account_invitations",
      "account_members",
      "api_keys",
      "app_state",
      "approval_policies",
      "approvals",
      "audit_events",
      "chain_cursors",
      "chain_transactions",
      "currency_feeds",
      "deposits",
      "domains",
      "forwards",
      "gas_charges",
      "idempotency_records",
      "native_balance_polls",
      "native_balance_watch",
      "network_batching",
      "payment_day_totals",
      "payment_links",
      "payment_sessions",
      "payout_batches",
      "payout_items",
      "plans",
      "quarantined_logs",
      "recovery_codes",
      "refunds",
      "session_counts",
      "session_quotes",
      "session_usage",
      "subscriptions",
      "sweep_batches",
      "token_catalogue",
      "tokens",
      "users",
      "wallet_nonces",
      "webhook_deliveries",
      "webhook_endpoints",
      "withdrawal_counts",
      "withdrawals",
    ]);
  });

  it("are idempotent: a second run applies nothing", async () => {
    expect(await migrate(db())).toEqual([]);
  });

  it("seed the free starter plan and paid plans", async () => {
    const rows = await db().select().from(plans).orderBy(plans.id);
    expect(rows.map((p) => [p.id, p.selfServe])).toEqual([
      ["enterprise", false],
      ["pro", false],
      ["starter", true],
    ]);
    expect(rows.find((p) => p.id === "starter")!.monthlySessionQuota).toBeGreaterThan(0);
  });

  it("apply once when two processes migrate the same database at the same time", async () => {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) {
      // PGlite is single-process; concurrent calls on one handle must still apply once.
      const handle = openPglite();
      const results = await Promise.all([migrate(handle.db), migrate(handle.db)]);
      expect(results.flat().sort()).toEqual(
        readMigrations()
          .map((m) => m.tag)
          .sort(),
      );
      await handle.close();
      return;
    }
    const empty = await createEmptyPostgres(serverUrl);
    const a = openPostgres(empty.url, { max: 1 });
    const b = openPostgres(empty.url, { max: 1 });
    const results = await Promise.all([migrate(a.db), migrate(b.db)]);
    expect(results.flat().sort()).toEqual(
      readMigrations()
        .map((m) => m.tag)
        .sort(),
    );
    await a.close();
    await b.close();
    await empty.drop();
  });
});

describe("schema", () => {
  it("stores amounts as numeric(78,0) and sums as unbounded numeric, read back as bigint, up to 2^256 - 1", async () => {
    const session = await insertSession("0x00000000000000000000000000000000000000a1", MAX_UINT256);
    const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, session.id));
    expect(row!.amount).toBe(MAX_UINT256);
    expect(row!.receivedAmount).toBe(0n);
    const types = rowsOf<{ column_name: string; numeric_precision: number; numeric_scale: number }>(
      await db().execute(sql`select case when table_name = 'forwards' and column_name = 'amount' then 'amount:forwards' else column_name end as column_name, numeric_precision, numeric_scale from information_schema.columns
        where table_name in ('payment_sessions', 'deposits', 'forwards', 'withdrawals') and data_type = 'numeric'`),
    );
    expect(types.length).toBeGreaterThanOrEqual(6);
    // Sums of any number of uint256 transfers (hostile ones included) must never overflow a column.
    const sums = new Set(["received_amount", "late_amount", "amount:forwards"]);
    for (const t of types) {
      if (sums.has(t.column_name)) expect([t.numeric_precision, t.numeric_scale]).toEqual([null, null]);
      else expect([t.column_name, t.numeric_precision, t.numeric_scale]).toEqual([t.column_name, 78, 0]);
    }
  });

  it("records a chain transfer once: deposits are unique on (network, txHash, logIndex)", async () => {
    const session = await insertSession("0x00000000000000000000000000000000000000a2", 5n);
    const deposit = {
      network: "local",
      txHash: `0x${"ab".repeat(32)}`,
      logIndex: 3,
      blockNumber: 10n,
      blockHash: `0x${"cd".repeat(32)}`,
      blockTimestamp: new Date(),
      tokenContract: "0x0000000000000000000000000000000000000001",
      fromAddress: "0x0000000000000000000000000000000000000002",
      toAddress: session.depositAddress,
      amount: 5n,
      sessionId: session.id,
    };
    await db().insert(deposits).values(deposit);
    const error = await db()
      .insert(deposits)
      .values(deposit)
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    await db()
      .insert(deposits)
      .values({ ...deposit, logIndex: 4 });
    const inserted = await db().insert(deposits).values(deposit).onConflictDoNothing().returning();
    expect(inserted).toEqual([]);
  });

  it("hands out deposit indexes from a sequence that never repeats", async () => {
    const values = await Promise.all(
      Array.from({ length: 20 }, async () =>
        Number(rowsOf<{ i: string }>(await db().execute(sql`select nextval('deposit_index_seq') as i`))[0]!.i),
      ),
    );
    expect(new Set(values).size).toBe(20);
  });
});

let sessionCounter = 0;
async function insertSession(depositAddress: string, amount: bigint) {
  const [user] = await db()
    .insert(users)
    .values({ email: `u${++sessionCounter}@example.com`, passwordHash: "x" })
    .returning();
  const [key] = await db()
    .insert(apiKeys)
    .values({ userId: user!.id, name: "k", prefix: "p", keyHash: `h${sessionCounter}` })
    .returning();
  const [token] = await db()
    .insert(tokens)
    .values({ userId: user!.id, network: "local", contractAddress: "0x01", symbol: "T", name: "T", decimals: 18 })
    .returning();
  const [session] = await db()
    .insert(paymentSessions)
    .values({
      id: crypto.randomUUID(),
      userId: user!.id,
      apiKeyId: key!.id,
      tokenId: token!.id,
      network: "local",
      chainId: 31337,
      depositIndex: 1000 + sessionCounter,
      depositAddress,
      depositTopic: depositAddress.slice(2).padStart(64, "0"),
      amount,
      forwardTo: depositAddress,
      expiresAt: new Date(Date.now() + 60_000),
    })
    .returning();
  return session!;
}

async function createEmptyPostgres(serverUrl: string) {
  const postgres = (await import("postgres")).default;
  const name = `bscpay_empty_${Math.random().toString(16).slice(2, 10)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
