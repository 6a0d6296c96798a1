import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as cancel } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { GET as history } from "@/app/api/v1/payment/history/route";
import { GET as withdrawalHistory } from "@/app/api/v1/withdrawal/history/route";
import { rowsOf } from "@/lib/db/rows";
import { paymentSessions } from "@/lib/db/schema";
import { type Merchant, newApiKey, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

/**
 * Histories page by cursor (docs/design.md §25): a walk returns every row once, in order, even when
 * many share a millisecond (PostgreSQL keeps microseconds, a JS Date does not) and while new rows
 * arrive; it combines with a status filter; a cursor we did not hand out changes nothing.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const SESSIONS = 23;

let merchant: Merchant;
let key: { id: number; key: string };
const headers = () => ({ "x-api-key": key.key });

interface HistoryPage {
  items: { sessionId?: string; withdrawalId?: string }[];
  nextCursor: string | null;
  meta: { page: number | null; limit: number; total: number; pages: number; nextCursor: string | null };
}

/** Every page from the newest by cursor; the pages as answered. */
async function walk(route: typeof history, query: string, between?: () => Promise<void>): Promise<HistoryPage[]> {
  const pages: HistoryPage[] = [];
  let cursor = "";
  for (let i = 0; i < 50; i++) {
    const res = await call(route, { headers: headers(), path: `/?${query}&cursor=${cursor}` });
    expect(res.status).toBe(200);
    const page = res.body.data as HistoryPage;
    pages.push(page);
    expect(page.meta.nextCursor).toBe(page.nextCursor);
    if (page.nextCursor === null) return pages;
    cursor = page.nextCursor;
    await between?.();
  }
  throw new Error("the walk does not end");
}

const idsOf = (pages: HistoryPage[]) => pages.flatMap((p) => p.items.map((i) => i.sessionId ?? i.withdrawalId));

async function newestFirst(where: ReturnType<typeof sql>) {
  const rows = rowsOf<{ id: string }>(
    await db().execute(sql`select id from payment_sessions where ${where} order by created_at desc, id desc`),
  );
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  merchant = await setUpMerchant({ contractAddress: await deployTestToken(chain().url, { symbol: "CUR" }), network: "bsc" });
  key = await newApiKey(merchant.auth);
  const ids: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const res = await call(create, { method: "POST", headers: headers(), body: { tokenId: merchant.tokenId, amount: "1" } });
    ids.push(res.body.data.sessionId);
  }
  // All but three within one millisecond: four microseconds apart at most, so several share the very same instant.
  await db().execute(sql`update payment_sessions set created_at = case
      when id in (${sql.join(
        ids.slice(0, 3).map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) then timestamptz '2026-05-01 10:00:00.120+00'
      else timestamptz '2026-05-01 10:00:00.123+00' + (get_byte(uuid_send(id), 15) % 4) * interval '1 microsecond' end
    where api_key_id = ${key.id}`);
  for (const id of ids.filter((_, i) => i % 3 === 0)) await call(cancel, { method: "POST", headers: headers(), params: { sessionId: id } });
});

describe("history by cursor", () => {
  it("walks every session once, newest first, through rows that share a millisecond, while new ones arrive", async () => {
    const expected = await newestFirst(sql`api_key_id = ${key.id}`);
    const instants = rowsOf<{ ms: number; us: number }>(
      await db().execute(sql`select count(distinct date_trunc('milliseconds', created_at))::int as ms, count(distinct created_at)::int as us
        from payment_sessions where api_key_id = ${key.id}`),
    );
    expect(instants[0]).toEqual({ ms: 2, us: expect.any(Number) });
    expect(instants[0]!.us).toBeGreaterThan(2);
    expect(instants[0]!.us).toBeLessThan(SESSIONS);

    let arrived = 0;
    const pages = await walk(history, "limit=4", async () => {
      arrived++;
      await call(create, { method: "POST", headers: headers(), body: { tokenId: merchant.tokenId, amount: "1" } });
    });
    expect(idsOf(pages)).toEqual(expected);
    expect(pages).toHaveLength(Math.ceil(SESSIONS / 4));
    expect(pages[0]!.meta).toMatchObject({ page: null, limit: 4, total: SESSIONS, pages: 6 });
    expect(pages.at(-1)!.meta).toMatchObject({ total: SESSIONS + arrived, nextCursor: null });
  });

  it("combines with a status filter", async () => {
    const expected = await newestFirst(sql`api_key_id = ${key.id} and status = 'cancelled'`);
    const pages = await walk(history, "status=cancelled&limit=3");
    expect(idsOf(pages)).toEqual(expected);
    expect(expected).toHaveLength(8);
    expect(pages[0]!.meta).toMatchObject({ page: null, limit: 3, total: 8, pages: 3 });
  });

  it("still answers page and limit as before, totals from the counters", async () => {
    const expected = await newestFirst(sql`api_key_id = ${key.id}`);
    const res = await call(history, { headers: headers(), path: "/?page=3&limit=5" });
    expect(res.body.data.meta).toEqual({ page: 3, limit: 5, total: expected.length, pages: Math.ceil(expected.length / 5) });
    expect(res.body.data.items.map((i: { sessionId: string }) => i.sessionId)).toEqual(expected.slice(10, 15));
    expect(Object.keys(res.body.data)).toEqual(["items", "meta"]);
    // Past the middle a page is read from the oldest end: the same rows, newest first, the last one short.
    for (const page of [3, 4, 5, 6]) {
      const deep = await call(history, { headers: headers(), path: `/?page=${page}&limit=4` });
      expect(
        deep.body.data.items.map((i: { sessionId: string }) => i.sessionId),
        `page ${page}`,
      ).toEqual(expected.slice((page - 1) * 4, page * 4));
    }
    const cancelled = await call(history, { headers: headers(), path: "/?status=cancelled&page=2&limit=5" });
    expect(cancelled.body.data.meta).toEqual({ page: 2, limit: 5, total: 8, pages: 2 });
  });

  it.each([
    ["not base64", "abc!"],
    ["not ours", Buffer.from("2026-05-01T10:00:00.123000Z|x").toString("base64url")],
    ["a millisecond time", Buffer.from(`2026-05-01T10:00:00.123Z|${crypto.randomUUID()}`).toString("base64url")],
    ["too long", "a".repeat(201)],
  ])("refuses a cursor that is %s with VALIDATION_ERROR, and changes nothing", async (_, cursor) => {
    const [due] = await db().select().from(paymentSessions).where(eq(paymentSessions.status, "pending")).limit(1);
    await db()
      .update(paymentSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentSessions.id, due!.id));
    const res = await call(history, { headers: headers(), path: `/?cursor=${cursor}` });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    const [after] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, due!.id));
    expect(after?.status).toBe("pending");
    await db().update(paymentSessions).set({ expiresAt: due!.expiresAt }).where(eq(paymentSessions.id, due!.id));
    const bad = await call(withdrawalHistory, { headers: headers(), path: `/?cursor=${cursor}` });
    expect(bad.status).toBe(400);
  });
});

describe("withdrawal history by cursor", () => {
  it("walks every withdrawal once, newest first, with the total from the counters", async () => {
    const count = 11;
    await db().execute(sql`insert into chain_transactions (network, wallet_role, wallet_index, wallet, nonce, kind, to_address, value, gas_limit, gas_price, tx_hash)
      select 'bsc', 'withdrawal', ${merchant.domainId}::int, 'w', i, 'withdrawal', 't', 0, 1, 1, 'h-' || i from generate_series(1, ${count}::int) as i`);
    await db().execute(sql`insert into withdrawals (id, user_id, api_key_id, domain_id, token_id, network, from_address, to_address, amount, nonce,
        tx_hash, chain_tx_id, gas_limit, gas_price, status, created_at)
      select gen_random_uuid(), ${merchant.userId}::int, ${key.id}::int, ${merchant.domainId}::int, ${merchant.tokenId}::int, 'bsc', 'w', 't', 1,
        ct.nonce, ct.tx_hash, ct.id, 1, 1, case when ct.nonce % 2 = 0 then 'completed' else 'submitted' end,
        timestamptz '2026-05-01 10:00:00.123+00' + (ct.nonce % 3) * interval '1 microsecond'
      from chain_transactions ct where ct.wallet = 'w'`);
    // As migration 0026 would count rows written before it (these bypass the writers).
    await db().execute(sql`insert into withdrawal_counts (user_id, api_key_id, status, slot, withdrawals)
      select user_id, api_key_id, status, 0, count(*) from withdrawals where api_key_id = ${key.id} group by 1, 2, 3`);
    const expected = rowsOf<{ id: string }>(
      await db().execute(sql`select id from withdrawals where api_key_id = ${key.id} order by created_at desc, id desc`),
    ).map((r) => r.id);
    const pages = await walk(withdrawalHistory, "limit=2");
    expect(idsOf(pages)).toEqual(expected);
    expect(pages[0]!.meta).toMatchObject({ page: null, limit: 2, total: count, pages: 6 });
    const completed = await walk(withdrawalHistory, "status=completed&limit=2");
    expect(completed.flatMap((p) => p.items).length).toBe(5);
    expect(completed[0]!.meta.total).toBe(5);
    const paged = await call(withdrawalHistory, { headers: headers(), path: "/?page=2&limit=4" });
    expect(paged.body.data.meta).toEqual({ page: 2, limit: 4, total: count, pages: 3 });
    expect(paged.body.data.items.map((w: { withdrawalId: string }) => w.withdrawalId)).toEqual(expected.slice(4, 8));
    const last = await call(withdrawalHistory, { headers: headers(), path: "/?page=3&limit=4" });
    expect(last.body.data.items.map((w: { withdrawalId: string }) => w.withdrawalId)).toEqual(expected.slice(8));
  });
});
