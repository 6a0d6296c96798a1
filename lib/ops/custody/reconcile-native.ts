/**
 * BNB itself in a reconciliation: the native balances of the deposit addresses read this
 * run (reconcile-coverage.ts) that took BNB — a native deposit recorded, or a session that offered
 * BNB (priced in it, or quoting it) — against the native deposits the ledger has not forwarded
 * there. The scanner sees a transaction's value, not BNB sent by a contract's internal call: such
 * BNB shows here as untracked, and `admin recover --include-bnb` moves it. What an address holds
 * beyond its deposits below the catalogue's BNB minimum is not reported (gas left over from a
 * token sweep's top-up stays there as dust). Addresses whose native sweep is in flight are left
 * for the next run.
 */
import { and, eq, sql } from "drizzle-orm";
import { type Address, formatEther, getAddress } from "viem";
import type { Db } from "../../db";
import { rowsOf } from "../../db/rows";
import { tokenCatalogue } from "../../db/schema";
import { depositTopicsOf } from "../../engine/chain/deposit-addresses";
import { readHoldings } from "../../engine/chain/multicall";
import { NATIVE_TOKEN } from "../../engine/chain/native";
import type { Reconciliation } from "./reconcile-report";

const NATIVE = [NATIVE_TOKEN, NATIVE_TOKEN.toLowerCase()];
const CHUNK = 1000;

export async function reconcileNative(
  db: Db,
  network: string,
  cursorBlock: bigint | null,
  addresses: Address[],
  out: Reconciliation,
): Promise<void> {
  const [bnb] = await db
    .select({ symbol: tokenCatalogue.symbol, min: tokenCatalogue.minForwardAmount })
    .from(tokenCatalogue)
    .where(and(eq(tokenCatalogue.network, network), sql`${tokenCatalogue.contractAddress} in ${NATIVE}`));
  if (!bnb) return;
  const tookBnb = await addressesThatTookBnb(db, network, addresses);
  const expected = await expectedNative(db, network, tookBnb);
  const holdings = await readHoldings(network, tookBnb, []);
  // Below the catalogue's minimum is dust (no forward would take it either).
  const threshold = bnb.min > 0n ? bnb.min : 1n;
  const fmt = (wei: bigint) => `${formatEther(wei)} ${bnb.symbol}`;
  const untracked: { address: Address; balance: bigint; expected: bigint }[] = [];
  let onDepositAddresses = 0n;
  let expectedTotal = 0n;
  for (const h of holdings) {
    onDepositAddresses += h.balance;
    const want = expected.get(h.owner.toLowerCase()) ?? { expected: 0n, moving: false };
    expectedTotal += want.expected;
    if (want.moving) continue;
    if (h.balance < want.expected)
      out.differences.push({
        network,
        kind: "short",
        address: h.owner,
        contract: NATIVE_TOKEN,
        symbol: bnb.symbol,
        message: `holds ${fmt(h.balance)}, the ledger expects ${fmt(want.expected)} there`,
      });
    else if (h.balance - want.expected >= threshold) untracked.push({ address: h.owner, ...want, balance: h.balance });
  }
  // A transfer in the last few blocks is not recorded yet: only what the scanner's block shows too is untracked.
  if (untracked.length > 0 && cursorBlock !== null) {
    const then = new Map(
      (
        await readHoldings(
          network,
          untracked.map((u) => u.address),
          [],
          cursorBlock,
        )
      ).map((h) => [h.owner, h.balance]),
    );
    for (const u of untracked) {
      const atCursor = then.get(u.address) ?? 0n;
      const surplus = (atCursor < u.balance ? atCursor : u.balance) - u.expected;
      if (surplus >= threshold)
        out.differences.push({
          network,
          kind: "untracked",
          address: u.address,
          contract: NATIVE_TOKEN,
          symbol: bnb.symbol,
          message: `holds ${fmt(surplus)} more than the ledger knows of (BNB sent by a contract's internal call is not seen by the scanner); npm run admin -- recover --include-bnb moves it`,
        });
    }
  }
  const [ledger] = rowsOf<{ recorded: string; forwarded: string; in_flight: string; held: string; below: string }>(
    await db.execute(sql`
      select coalesce(sum(d.amount), 0)::text as recorded,
             coalesce(sum(d.amount) filter (where f.status = 'completed'), 0)::text as forwarded,
             coalesce(sum(d.amount) filter (where f.status in ('pending', 'gas_sent', 'sweep_sent', 'batched')), 0)::text as in_flight,
             coalesce(sum(d.amount) filter (where f.status = 'held'), 0)::text as held,
             coalesce(sum(d.amount) filter (where d.forward_id is null), 0)::text as below
      from deposits d left join forwards f on f.id = d.forward_id
      where d.network = ${network} and d.token_contract in ${NATIVE}`),
  );
  out.tokens.push({
    network,
    contract: NATIVE_TOKEN,
    symbol: bnb.symbol,
    decimals: 18,
    recorded: BigInt(ledger?.recorded ?? 0),
    forwarded: BigInt(ledger?.forwarded ?? 0),
    inFlight: BigInt(ledger?.in_flight ?? 0),
    held: BigInt(ledger?.held ?? 0),
    belowMinimum: BigInt(ledger?.below ?? 0),
    onDepositAddresses,
    expectedOnDepositAddresses: expectedTotal,
  });
}

/** Of `addresses`, those with a native deposit recorded or a session that offered BNB (through the indexes on topic and deposit address). */
async function addressesThatTookBnb(db: Db, network: string, addresses: Address[]): Promise<Address[]> {
  const found = new Set<Address>();
  for (let i = 0; i < addresses.length; i += CHUNK) {
    const chunk = addresses.slice(i, i + CHUNK);
    const rows = rowsOf<{ address: string }>(
      await db.execute(sql`
        select s.deposit_address as address from payment_sessions s join tokens t on t.id = s.token_id
        where s.network = ${network} and s.deposit_topic in ${depositTopicsOf(chunk)} and t.contract_address in ${NATIVE}
        union
        select s.deposit_address from payment_sessions s
          join session_quotes q on q.session_id = s.id join tokens t on t.id = q.token_id
        where s.network = ${network} and s.deposit_topic in ${depositTopicsOf(chunk)} and t.contract_address in ${NATIVE}
        union
        select to_address from deposits where network = ${network} and to_address in ${chunk} and token_contract in ${NATIVE}`),
    );
    for (const r of rows) found.add(getAddress(r.address));
  }
  return [...found];
}

/** Per address: the native deposits not forwarded yet, and whether a sweep of them is moving. */
async function expectedNative(db: Db, network: string, addresses: Address[]) {
  const expected = new Map<string, { expected: bigint; moving: boolean }>();
  for (let i = 0; i < addresses.length; i += CHUNK) {
    const chunk = addresses.slice(i, i + CHUNK);
    const rows = rowsOf<{ address: string; expected: string; moving: boolean }>(
      await db.execute(sql`
        select d.to_address as address,
               coalesce(sum(d.amount) filter (where d.forward_id is null or f.status in ('pending', 'held')), 0)::text as expected,
               bool_or(f.status in ('gas_sent', 'sweep_sent', 'batched')) as moving
        from deposits d left join forwards f on f.id = d.forward_id
        where d.network = ${network} and d.to_address in ${chunk} and d.token_contract in ${NATIVE}
        group by d.to_address`),
    );
    for (const r of rows) expected.set(r.address.toLowerCase(), { expected: BigInt(r.expected), moving: Boolean(r.moving) });
  }
  return expected;
}
