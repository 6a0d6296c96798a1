import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";

/**
 * Two merchants' payments written straight in SQL (no chain needed), for the dashboard's search
 * and list tests: `filler` plain payments of merchant A, a few with every searchable field set, and
 * merchant B's look-alikes that A must never find.
 */
export const SEARCH = {
  paidTx: `0x${"ab".repeat(31)}01`,
  partialTx: `0x${"cd".repeat(31)}02`,
  /** Checksummed (mixed case), as sessions store it. */
  paidAddress: "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
  partialAddress: "0x1111111111111111111111111111111111111111",
  payer: "0x9999999999999999999999999999999999999999",
  otherPayer: "0x7777777777777777777777777777777777777777",
} as const;

export interface SearchFixtures {
  a: number;
  b: number;
  paid: string;
  partial: string;
  theirs: string;
}

export async function seedSearchFixtures(db: Db, filler: number): Promise<SearchFixtures> {
  const [a, b] = rowsOf<{ id: number }>(
    await db.execute(sql`insert into users (email, password_hash) values ('a@search.test', 'x'), ('b@search.test', 'x') returning id`),
  ).map((r) => r.id);
  await db.execute(sql`insert into tokens (user_id, network, contract_address, symbol, name, decimals)
    select id, 'bsc', '0x55d398326f99059fF775485246999027B3197955', 'USDT', 'Tether', 18 from users where id in (${a}, ${b})`);
  const session = async (
    userId: number | undefined,
    index: number,
    fields: { orderId: string; address: string; txHash: string | null; metadata: unknown; description: string },
  ) => {
    const [row] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into payment_sessions (id, user_id, token_id, network, chain_id, deposit_index, deposit_address,
        deposit_topic, amount, forward_to, status, tx_hash, metadata, order_id, description, expires_at, created_at)
      select gen_random_uuid(), ${userId}, t.id, 'bsc', 56, ${index}, ${fields.address}, lpad(lower(substr(${fields.address}, 3)), 64, '0'),
        5000000000000000000, '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199', ${fields.txHash ? "completed" : "pending"}, ${fields.txHash},
        ${JSON.stringify(fields.metadata)}::jsonb, ${fields.orderId}, ${fields.description}, now() + interval '1 day', now() - ${`${index} seconds`}::interval
      from tokens t where t.user_id = ${userId} returning id`),
    );
    return row!.id;
  };
  const deposit = async (sessionId: string, txHash: string, from: string, to: string) => {
    await db.execute(sql`insert into deposits (network, tx_hash, log_index, block_number, block_hash, block_timestamp, token_contract,
      from_address, to_address, amount, session_id, needs_planning)
      values ('bsc', ${txHash}, 0, 100, '0x00', now(), '0x55d398326f99059fF775485246999027B3197955', ${from}, ${to}, 1, ${sessionId}, false)`);
  };

  await db.execute(sql`insert into payment_sessions (id, user_id, token_id, network, chain_id, deposit_index, deposit_address,
      deposit_topic, amount, forward_to, status, tx_hash, metadata, order_id, description, expires_at, created_at)
    select gen_random_uuid(), ${a}, t.id, 'bsc', 56, 1000 + g, '0x' || substr(md5('a' || g), 1, 40), lpad(substr(md5('a' || g), 1, 40), 64, '0'),
      g, '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199', case when g % 2 = 0 then 'completed' else 'pending' end,
      case when g % 2 = 0 then '0x' || md5('t' || g) || md5('u' || g) end,
      jsonb_build_object('customer', 'cust-' || g, 'plan', 'basic'), 'F-' || g, 'Flat white ' || g,
      now() + interval '1 day', now() - interval '1 hour' - g * interval '1 second'
    from tokens t, generate_series(1, ${filler}) g where t.user_id = ${a}`);
  const paid = await session(a, 1, {
    orderId: "ORD-10042",
    address: SEARCH.paidAddress,
    txHash: SEARCH.paidTx,
    metadata: { customer: "ada@example.com", cart: { sku: "SKU-7", qty: 3 }, gift: true },
    description: "2 × Flat white",
  });
  await deposit(paid, SEARCH.paidTx, SEARCH.payer, SEARCH.paidAddress);
  const partial = await session(a, 2, {
    orderId: "INV-2",
    address: SEARCH.partialAddress,
    txHash: null,
    metadata: { customer: "grace@example.com" },
    description: "Invoice",
  });
  await deposit(partial, SEARCH.partialTx, SEARCH.otherPayer, SEARCH.partialAddress);
  const theirs = await session(b, 3, {
    orderId: "ORD-10042",
    address: "0x2222222222222222222222222222222222222222",
    txHash: `0x${"ef".repeat(32)}`,
    metadata: { customer: "ada@example.com", cart: { sku: "SKU-7", qty: 3 } },
    description: "2 × Flat white",
  });
  await deposit(theirs, `0x${"ef".repeat(32)}`, SEARCH.payer, "0x2222222222222222222222222222222222222222");
  await db.execute(sql`analyze`);
  return { a: a!, b: b!, paid, partial, theirs };
}
