import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/lib/db/client";
import { listUserWithdrawals } from "@/lib/domain/withdrawals/user-withdrawals";
import { GAS_CSV_COLUMNS, gasCsvStream } from "@/lib/web/dashboard/gas/gas-export";
import { accountCells, type ExportValuation } from "@/lib/web/dashboard/payments/payments-csv-line";
import {
  type CsvPaymentRow,
  exportValuation,
  PAYMENTS_CSV_HEADER,
  paymentExportBatches,
  paymentsCsvStream,
} from "@/lib/web/dashboard/payments/payments-export";
import { CSV_COLUMNS, listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { csvLine } from "@/lib/web/dashboard/shared/csv";
import { WITHDRAWAL_CSV_COLUMNS, withdrawalExportBatches, withdrawalsCsvStream } from "@/lib/web/dashboard/withdrawals/withdrawals-export";
import { createTestDatabase } from "../helpers/database";

/**
 * The dashboard's CSV export (a server-side cursor on PostgreSQL, index-bounded keyset batches on
 * PGlite) holds exactly the list's rows, in its order — rows that share a millisecond, or even a
 * microsecond, included — and a reader that goes away mid-stream leaves no open read behind.
 */
const ROWS = 1_203;
const WITHDRAWALS = 301;
const GAS_ROWS = 123;
let handle: DatabaseHandle;
const filters = (input: Record<string, unknown> = {}) => paymentFiltersSchema.parse(input);

beforeAll(async () => {
  handle = await createTestDatabase();
  const q = (query: ReturnType<typeof sql>) => handle.db.execute(query);
  await q(
    sql`insert into users (id, email, password_hash) overriding system value values (1, 'a@example.com', 'x'), (2, 'b@example.com', 'x')`,
  );
  await q(sql`insert into tokens (id, user_id, network, contract_address, symbol, name, decimals) overriding system value
    values (1, 1, 'bsc', '0x55d398326f99059fF775485246999027B3197955', 'USDT', 'Tether', 18),
           (2, 2, 'bsc', '0x55d398326f99059fF775485246999027B3197955', 'USDT', 'Tether', 6)`);
  // Seven rows per millisecond, three of them on the very same microsecond (the id breaks those ties),
  // some at .xxx998 (milliseconds are cut, never rounded); half the pending ones past their expiry.
  await q(sql`insert into payment_sessions (id, user_id, token_id, network, chain_id, deposit_index, deposit_address, deposit_topic,
      amount, received_amount, forward_to, status, tx_hash, order_id, description, metadata, expires_at, completed_at, created_at,
      currency, fiat_amount, rate)
    select gen_random_uuid(), case when i % 10 = 0 then 2 else 1 end, case when i % 10 = 0 then 2 else 1 end, 'bsc', 56, i,
      'addr-' || i, 'topic-' || i, 1000000000000000000 + i, case when i % 3 = 0 then 1000000000000000000 + i else 0 end,
      '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199',
      case when i % 3 = 0 then 'completed' when i % 3 = 1 then 'pending' else 'cancelled' end,
      case when i % 3 = 0 then '0x' || md5(i::text) || md5(i::text) end,
      'order-' || i || case when i % 5 = 0 then ', "quoted"' else '' end,
      case when i % 7 = 0 then '=SUM(A1)' when i % 13 = 0 then E'line one\nline "two"\r' when i % 17 = 0 then '-1,5'
        when i % 19 = 0 then E'\t@tab' when i % 23 = 0 then '' end,
      jsonb_build_object('customer', 'c' || i),
      case when i % 2 = 0 then timestamptz '2026-11-01 00:00:00+00' else now() + interval '1 hour' end,
      case when i % 3 = 0 then timestamptz '2026-11-02 00:00:00+00' end,
      timestamptz '2026-10-01 00:00:00+00' + (i / 7) * interval '1 millisecond' + ((i % 7) / 3) * interval '499 microsecond',
      -- Every eleventh priced in a fiat currency (the CSV's last three columns).
      case when i % 11 = 0 then (case when i % 2 = 0 then 'USD' else 'EUR' end) end,
      case when i % 11 = 0 then 2500 + i end,
      case when i % 11 = 0 then '0.92592592' end
    from generate_series(1, ${ROWS}) as i`);
  await q(
    sql`insert into domains (id, user_id, origin) overriding system value values (1, 1, 'https://shop.example'), (2, 2, 'https://other.example')`,
  );
  await q(sql`insert into chain_transactions (id, network, wallet_role, wallet_index, wallet, nonce, kind, to_address, value, gas_limit, gas_price, tx_hash)
    overriding system value
    select i, 'bsc', 'withdrawal', 1, '0x' || lpad(to_hex(i % 2), 40, '0'), i, 'withdrawal', '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199', 0, 21000, 1,
      '0x' || md5('w' || i) || md5(i || 'w')
    from generate_series(1, ${WITHDRAWALS}) as i`);
  await q(sql`insert into withdrawals (id, user_id, api_key_id, domain_id, token_id, network, from_address, to_address, amount, nonce, tx_hash,
      chain_tx_id, gas_limit, gas_price, status, failure_reason, created_at)
    select gen_random_uuid(), 1 + i % 2, null, 1 + i % 2, 1 + i % 2, 'bsc', '0x' || lpad(to_hex(i % 2), 40, '0'),
      '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199', 1000000000000000000::numeric * i, i, '0x' || md5('w' || i) || md5(i || 'w'), i, 21000, 1,
      case when i % 4 = 0 then 'failed' else 'completed' end, case when i % 4 = 0 then 'reverted, "out of gas"' end,
      timestamptz '2026-10-01 00:00:00+00' + (i / 9) * interval '1 millisecond'
    from generate_series(1, ${WITHDRAWALS}) as i`);
  // Gas the tank paid: five sweeps per millisecond, one in three charged to the other merchant.
  await q(sql`insert into chain_transactions (id, network, wallet_role, wallet_index, wallet, nonce, kind, to_address, value, gas_limit,
      gas_price, tx_hash, status, gas_used, created_at)
    overriding system value
    select 1000 + i, 'bsc', 'gas_tank', 0, '0x00000000000000000000000000000000000000aa', i, 'sweep_gas', '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199',
      1000, 21000, 1, '0x' || md5('g' || i) || md5(i || 'g'), 'mined', 21000, timestamptz '2026-10-02 00:00:00+00' + (i / 5) * interval '1 millisecond'
    from generate_series(1, ${GAS_ROWS}) as i`);
  await q(
    // A charge carries its ledger row's time, as recordTransaction writes it (and 0030 backfilled it).
    sql`insert into gas_charges (chain_tx_id, user_id, created_at) select 1000 + i, case when i % 3 = 0 then 2 else 1 end,
      timestamptz '2026-10-02 00:00:00+00' + (i / 5) * interval '1 millisecond' from generate_series(1, ${GAS_ROWS}) as i`,
  );
});

afterAll(async () => {
  await handle?.close();
});

/** Every row of the list for these filters, walking its pages. */
async function listed(input: Record<string, unknown>): Promise<CsvPaymentRow[]> {
  const rows: CsvPaymentRow[] = [];
  for (let after: string | undefined; ; ) {
    const found = await listUserPayments(handle.db, 1, filters({ ...input, after, limit: 100 }));
    rows.push(...found.items.map(({ refunds: _refunds, metadata: _metadata, paymentLinkId: _link, ...row }) => row));
    if (!found.older) return rows;
    after = found.older;
  }
}

/** The export's lines without the header, batch by batch (each batch whole lines). */
async function exported(input: Record<string, unknown>, batch: number): Promise<string> {
  let text = "";
  for await (const lines of paymentExportBatches(handle.db, 1, filters(input), batch, valuation)) {
    expect(lines.text.endsWith("\r\n")).toBe(true);
    expect(lines.text.split("\r\n")).toHaveLength(lines.rows + 1);
    text += lines.text;
  }
  return text;
}

/** A USD account that converts EUR at 1.08 today (a fixed valuation: no chain in this test). */
const valuation: ExportValuation = {
  currency: "USD",
  conversions: new Map([["EUR", { from: "EUR", to: "USD", units: 108_000_000n, rate: "1.08000000", asOf: null }]]),
};

/** The row's recorded value in minor units ("25.33" → 2533n), or null. */
const minorOf = (row: CsvPaymentRow) => (row.value === null ? null : BigInt(row.value.replace(".", "")));

/** What csvLine writes of the list's rows, then the account's cells: the export must write exactly this. */
const lineOfRow = (row: CsvPaymentRow, v = valuation) =>
  csvLine([...CSV_COLUMNS.map((c) => row[c as keyof CsvPaymentRow]), ...accountCells(minorOf(row), row.valueCurrency, v)]);
const linesOf = (rows: CsvPaymentRow[]) => rows.map((row) => lineOfRow(row)).join("");

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe(`the payments CSV export (${process.env.TEST_DATABASE_URL ? "PostgreSQL cursor" : "PGlite keyset"})`, () => {
  it("holds exactly the list's rows, in its order, across batches that cut through shared milliseconds", async () => {
    const list = await listed({});
    expect(list).toHaveLength(ROWS - Math.floor(ROWS / 10));
    expect(new Set(list.map((r) => r.sessionId)).size).toBe(list.length);
    const sharedMs = list.filter((r, i) => i > 0 && list[i - 1]?.createdAt === r.createdAt).length;
    expect(sharedMs).toBeGreaterThan(list.length / 2);
    for (const batch of [7, 50, 5000]) expect(await exported({}, batch)).toBe(linesOf(list));

    const csv = await text(paymentsCsvStream(handle.db, 1, filters(), 50, valuation));
    expect(csv).toBe(csvLine([...PAYMENTS_CSV_HEADER]) + linesOf(list));
    expect(csv).toContain(`"order-5, ""quoted"""`);
    expect(csv).toContain(`'=SUM(A1)`);
    expect(csv.split("\r\n")[0]).toMatch(/,currency,fiatAmount,rate,valueCurrency,value,accountCurrency,accountValue,accountRate$/);
    // A fiat-priced row carries its currency, price and rate, then what it received at that rate, then
    // that value in the account's currency: as is, or converted at today's rate (which is shown).
    expect(csv).toMatch(/,EUR,25\.33,0\.92592592,EUR,25\.33,USD,27\.35,1\.08000000\r\n/);
    expect(csv).toMatch(/,USD,25\.66,0\.92592592,USD,25\.66,USD,25\.66,\r\n/);
    expect(csv).toMatch(/,EUR,25\.11,0\.92592592,,,USD,,\r\n/); // nothing received yet
    // A token-priced payment of a USD stablecoin (USDT in the catalogue) is worth 1:1 USD, to the cent.
    expect(csv).toMatch(/,,,,USD,1\.00,USD,1\.00,\r\n/);
    expect(csv).toMatch(/,,,,,,USD,,\r\n/);
  });

  it("follows the list's filters", async () => {
    const input = { status: "completed", from: "2026-10-01", to: "2026-10-01" };
    const list = await listed(input);
    expect(list.length).toBeGreaterThan(300);
    expect(list.every((r) => r.status === "completed" && r.txHash)).toBe(true);
    expect(await exported(input, 64)).toBe(linesOf(list));
  });

  it("gives the header alone when no payment matches", async () => {
    expect(await text(paymentsCsvStream(handle.db, 1, filters({ to: "2020-01-01" })))).toBe(csvLine([...PAYMENTS_CSV_HEADER]));
    expect(await text(paymentsCsvStream(handle.db, 3, filters()))).toBe(csvLine([...PAYMENTS_CSV_HEADER]));
  });

  it("writes the account currency's cells of a EUR account: USD values converted only with a rate today, else left empty", async () => {
    const eur: ExportValuation = {
      currency: "EUR",
      conversions: new Map([["USD", { from: "USD", to: "EUR", units: 92_592_592n, rate: "0.92592592", asOf: null }]]),
    };
    const list = await listed({});
    let csv = "";
    for await (const lines of paymentExportBatches(handle.db, 1, filters(), 500, eur)) csv += lines.text;
    expect(csv).toBe(list.map((row) => lineOfRow(row, eur)).join(""));
    expect(csv).toMatch(/,EUR,25\.33,0\.92592592,EUR,25\.33,EUR,25\.33,\r\n/);
    expect(csv).toMatch(/,USD,25\.66,0\.92592592,USD,25\.66,EUR,23\.75,0\.92592592\r\n/);
    expect(csv).toMatch(/,,,,USD,1\.00,EUR,0\.92,0\.92592592\r\n/);
    const noRate: ExportValuation = { currency: "EUR", conversions: new Map() };
    csv = "";
    for await (const lines of paymentExportBatches(handle.db, 1, filters(), 500, noRate)) csv += lines.text;
    expect(csv).toMatch(/,USD,25\.66,0\.92592592,USD,25\.66,EUR,,\r\n/);
    expect(csv).not.toMatch(/,USD,[0-9.]+,EUR,[0-9]/);
  });

  it("values the export in the account's currency as set", async () => {
    await handle.db.execute(sql`update users set account_currency = 'EUR' where id = 2`);
    expect((await exportValuation(handle.db, 2)).currency).toBe("EUR");
    expect((await exportValuation(handle.db, 1)).currency).toBe("USD");
  });

  it("releases its read when the reader goes away mid-stream", async () => {
    const reader = paymentsCsvStream(handle.db, 1, filters(), 50).getReader();
    await reader.read(); // the header
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value).split("\r\n")).toHaveLength(51);
    await reader.cancel();
    // The database answers other queries at once (PGlite has one connection), and holds no
    // open transaction or running statement of the export.
    const others = await handle.db.execute<{ state: string; query: string }>(
      sql`select state, query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
    );
    expect(rowsOf<{ state: string }>(others)).toEqual([]);
    const cursors = await handle.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_cursors where statement not like '%pg_cursors%'`,
    );
    expect(rowsOf<{ n: number }>(cursors)[0]?.n).toBe(0);
  });
});

describe("the withdrawals CSV export", () => {
  it("holds exactly the withdrawals page's rows, in its order, across batches that cut through shared milliseconds", async () => {
    const listed = [];
    for (let after: string | undefined; ; ) {
      const found = await listUserWithdrawals(handle.db, 1, { after, limit: 100 });
      listed.push(...found.items);
      if (!found.older) break;
      after = found.older;
    }
    expect(listed).toHaveLength(Math.ceil(WITHDRAWALS / 2) - 1);
    const rows = [];
    for await (const batch of withdrawalExportBatches(handle.db, 1, {}, 7)) rows.push(...batch);
    expect(rows.map((r) => r.withdrawalId)).toEqual(listed.map((w) => w.withdrawalId));
    expect(rows[0]).toMatchObject({ domain: "https://shop.example", source: "dashboard", token: "USDT" });
    const failed = [];
    for await (const batch of withdrawalExportBatches(handle.db, 1, { status: "failed" }, 7)) failed.push(...batch);
    expect(failed.map((r) => r.withdrawalId)).toEqual(listed.filter((w) => w.status === "failed").map((w) => w.withdrawalId));

    const csv = await text(withdrawalsCsvStream(handle.db, 1, {}, 50));
    expect(csv.split("\r\n")[0]).toBe(WITHDRAWAL_CSV_COLUMNS.join(","));
    expect(csv.split("\r\n")).toHaveLength(listed.length + 2);
    expect(csv).toContain(`"reverted, ""out of gas"""`);
    expect(await text(withdrawalsCsvStream(handle.db, 3, {}))).toBe(`${WITHDRAWAL_CSV_COLUMNS.join(",")}\r\n`);
  });
});

describe("the gas CSV export", () => {
  it("lists every charged transaction of the merchant once, newest first, across batches that cut through shared milliseconds", async () => {
    const csv = await text(gasCsvStream(handle.db, 1, 7));
    const lines = csv.split("\r\n").slice(0, -1);
    expect(lines[0]).toBe(GAS_CSV_COLUMNS.join(","));
    const expected = rowsOf<{ tx_hash: string }>(
      await handle.db.execute(sql`select ct.tx_hash from gas_charges gc join chain_transactions ct on ct.id = gc.chain_tx_id
        where gc.user_id = 1 order by ct.created_at desc, ct.id desc`),
    ).map((r) => r.tx_hash);
    expect(expected).toHaveLength(GAS_ROWS - Math.floor(GAS_ROWS / 3));
    expect(lines.slice(1).map((line) => line.split(",")[4])).toEqual(expected);
    // value + gas used × price: 1,000 + 21,000 wei.
    expect(lines[1]).toMatch(/^2026-10-02T00:00:00\.\d{3}Z,sweep,[^,]+,mined,0x[0-9a-f]{64},0\.000000000000022$/);
    expect(await text(gasCsvStream(handle.db, 3))).toBe(`${GAS_CSV_COLUMNS.join(",")}\r\n`);
  });
});

/** postgres.js answers an array of rows, PGlite `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}
