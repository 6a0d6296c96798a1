import { readFileSync } from "node:fs";
import { join } from "node:path";
import type postgres from "postgres";

/**
 * Grows a merchant's history in SQL (generate_series, chunk by chunk): payment sessions at a
 * steady 72,000 a month up to now, 60 % completed (each with its deposit and its completed
 * forward), 30 % expired, 10 % cancelled, the newest few (one in 25,000) still open. Every session has its own
 * order id, deposit address and topic, a metadata object (customer, invoice, cart) and, when paid,
 * its own transaction hash — what the dashboard's searches and the API look for.
 */
export interface GrowTarget {
  userId: number;
  apiKeyId: number;
  tokenId: number;
  domainId: number;
  tokenContract: string;
  forwardTo: string;
  /** Makes this merchant's order ids, addresses, topics and hashes its own. */
  salt: number;
}

/** 30 days / 72,000 sessions: one month of the big merchant is the 72k-row export. */
export const SECONDS_PER_SESSION = 36;
const CHUNK = 100_000;

export async function growHistory(sql: postgres.Sql, target: GrowTarget, sessions: number, log: (line: string) => void): Promise<void> {
  const [reserved] = await sql<{ first: string }[]>`select nextval('deposit_index_seq') as first`;
  // The sequence hands real creates indices after ours (the deposit address pool draws from it too).
  const indexBase = Number(reserved?.first) - 1;
  await sql`select setval('deposit_index_seq', ${indexBase + sessions + 1})`;
  const [ids] = await sql<{ deposit: string; forward: string }[]>`
    select (select coalesce(max(id), 0) from deposits) as deposit, (select coalesce(max(id), 0) from forwards) as forward`;
  const depositBase = Number(ids?.deposit);
  const forwardBase = Number(ids?.forward);
  const { userId, apiKeyId, tokenId, domainId, tokenContract, forwardTo, salt } = target;
  const started = Date.now();
  const openSessions = Math.max(1, Math.floor(sessions / 25_000));
  await sql`set synchronous_commit = off`;
  for (let lo = 1; lo <= sessions; lo += CHUNK) {
    const hi = Math.min(sessions, lo + CHUNK - 1);
    await sql`
      insert into payment_sessions (id, user_id, api_key_id, token_id, domain_id, network, chain_id, deposit_index, deposit_address,
        deposit_topic, amount, received_amount, forward_to, status, tx_hash, metadata, description, order_id, quota_counted_at,
        expires_at, completed_at, cancelled_at, expired_at, created_at, updated_at)
      select gen_random_uuid(), ${userId}, ${apiKeyId}, ${tokenId}, ${domainId}, 'bsc', 56, ${indexBase} + i, '0x' || a.hex,
        lpad(a.hex, 64, '0'), amt, case when st = 'completed' then amt else 0 end, ${forwardTo}, st,
        case when st = 'completed' then '0x' || md5('tx:' || ${salt} || ':' || i) || md5('hash:' || ${salt} || ':' || i) end,
        jsonb_build_object('customer', 'cust-' || (i % 40000), 'invoice', 'INV-' || ${salt} || '-' || i, 'cart', jsonb_build_object('items', i % 5 + 1)),
        'Order ' || i || ' of the bench shop', 'ORD-' || ${salt} || '-' || lpad(i::text, 7, '0'), t,
        t + interval '1 hour', case when st = 'completed' then t + interval '2 minutes' end,
        case when st = 'cancelled' then t + interval '10 minutes' end, case when st = 'expired' then t + interval '1 hour' end, t, t
      from generate_series(${lo}::int, ${hi}::int) as i,
        lateral (select now() - (${sessions}::int - i) * ${SECONDS_PER_SESSION}::int * interval '1 second' as t,
          ((i % 997) + 1)::numeric * 10000000000000000 as amt,
          substr(md5('addr:' || ${salt} || ':' || i), 1, 32) || substr(md5(i || ':addr:' || ${salt}), 1, 8) as hex,
          case when i > ${sessions - openSessions} then 'pending'
               when i % 20 < 12 then 'completed' when i % 20 < 18 then 'expired' else 'cancelled' end as st) as a`;
    const paid = sql`from payment_sessions s
      where s.user_id = ${userId} and s.deposit_index between ${indexBase + lo} and ${indexBase + hi} and s.status = 'completed'`;
    await sql`
      insert into deposits (id, network, tx_hash, log_index, block_number, block_hash, block_timestamp, token_contract, from_address,
        to_address, amount, session_id, late, forward_id, needs_planning, created_at)
      overriding system value
      select ${depositBase} + (s.deposit_index - ${indexBase}), 'bsc', s.tx_hash, 0, 40000000 + s.deposit_index,
        '0x' || md5('block:' || s.deposit_index) || md5(s.deposit_index || ':block'), s.created_at + interval '1 minute', ${tokenContract},
        '0x' || substr(md5('payer:' || ${salt} || ':' || (s.deposit_index % 5000)), 1, 32) || '00000000', s.deposit_address, s.amount, s.id, false,
        ${forwardBase} + (s.deposit_index - ${indexBase}), false, s.created_at + interval '1 minute'
      ${paid}`;
    await sql`
      insert into forwards (id, deposit_id, session_id, network, from_address, to_address, token_contract, amount, status,
        sweep_tx_hash, gas_used, attempts, completed_at, next_attempt_at, created_at, updated_at)
      overriding system value
      select ${forwardBase} + (s.deposit_index - ${indexBase}), ${depositBase} + (s.deposit_index - ${indexBase}), s.id, 'bsc',
        s.deposit_address, s.forward_to, ${tokenContract}, s.amount, 'completed',
        '0x' || md5('sweep:' || s.deposit_index) || md5(s.deposit_index || ':sweep'), 50600, 1,
        s.created_at + interval '3 minutes', s.created_at + interval '2 minutes', s.created_at + interval '2 minutes', s.created_at + interval '3 minutes'
      ${paid}`;
    log(`  ${hi.toLocaleString("en")} / ${sessions.toLocaleString("en")} sessions (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  await sql`select setval(pg_get_serial_sequence('deposits', 'id'), (select max(id) from deposits))`;
  await sql`select setval(pg_get_serial_sequence('forwards', 'id'), (select max(id) from forwards))`;
}

/**
 * The counters and day totals the app keeps in its writing transactions (session_counts,
 * withdrawal_counts, payment_day_totals) never saw the rows grown in SQL: the merchant's are
 * rebuilt from its rows by migration 0026's own backfill statements, each read from the file and
 * run over this merchant's rows only (its table swapped for the merchant's slice of it).
 */
export async function refillCounters(sql: postgres.Sql, userId: number): Promise<void> {
  const migration = readFileSync(join(process.cwd(), "drizzle/0026_history_counters.sql"), "utf8");
  const backfill = migration
    .split("--> statement-breakpoint")
    .map((statement) => statement.replace(/^(\s*--.*\n)*/, "").trim())
    .filter((statement) => statement.startsWith("INSERT INTO"));
  if (backfill.length !== 3) throw new Error(`expected 3 backfill statements in 0026_history_counters.sql, found ${backfill.length}`);
  const ownRows = backfill.map((statement) => {
    const from = statement.match(/FROM "(payment_sessions|withdrawals)"/g) ?? [];
    if (from.length !== 1) throw new Error(`backfill statement reads from ${from.length} tables: ${statement.slice(0, 80)}`);
    return statement.replace(
      /FROM "(payment_sessions|withdrawals)"/,
      (_, table: string) => `FROM (SELECT * FROM "${table}" WHERE "user_id" = ${Number(userId)}) AS "${table}"`,
    );
  });
  await sql.begin(async (tx) => {
    await tx`delete from session_counts where user_id = ${userId}`;
    await tx`delete from withdrawal_counts where user_id = ${userId}`;
    await tx`delete from payment_day_totals where user_id = ${userId}`;
    for (const statement of ownRows) await tx.unsafe(statement);
  });
}

/** What a long-lived database has: statistics and a visibility map (autovacuum's work, done now). */
export async function settle(sql: postgres.Sql): Promise<void> {
  await sql`vacuum (analyze) payment_sessions, deposits, forwards, session_counts, payment_day_totals`;
}
