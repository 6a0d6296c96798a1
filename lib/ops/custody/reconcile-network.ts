/**
 * One network's reconciliation (see reconcile.ts): the catalogue tokens deployed there, the
 * ledger's figures per token, and what the deposit addresses that can hold something
 * (reconcile-coverage.ts) hold against the unswept deposits the ledger puts there — unreadable,
 * short (read twice, ledger first) or untracked (also at the scanner's block). Held forwards are differences too; withdrawal wallets are checked by
 * reconcile-wallets.ts. Differences and per-token summaries go into the run's result.
 */
import { and, eq, sql } from "drizzle-orm";
import { type Address, formatUnits, getAddress } from "viem";
import type { Db } from "../../db";
import { rowsOf } from "../../db/rows";
import { tokenCatalogue } from "../../db/schema";
import { readHoldings } from "../../engine/chain/multicall";
import { publicClientFor } from "../../engine/chain/networks";
import { addressesToReconcile } from "./reconcile-coverage";
import { reconcileNative } from "./reconcile-native";
import type { Reconciliation, TokenInfo } from "./reconcile-report";
import { checkWithdrawalWallets } from "./reconcile-wallets";

/** Adds the network's differences and per-token summaries to `out`; nothing when no catalogue token is deployed there. */
export async function reconcileNetwork(
  db: Db,
  network: string,
  cursorBlock: bigint | null,
  out: Reconciliation,
  options: { sampleSize?: number } = {},
): Promise<void> {
  const tokens = await tokensOf(db, network);
  if (tokens.length === 0) return;
  const tokenOf = new Map(tokens.map((t) => [t.contract, t]));
  // Every balance below was read for one of `tokens`, so its contract is always found.
  const tokenInfo = (contract: Address): TokenInfo => {
    const found = tokenOf.get(contract);
    if (!found) throw new Error(`reconcile: ${contract} is not one of the tokens read on ${network}`);
    return found;
  };
  const fmt = (contract: Address, units: bigint) => `${formatUnits(units, tokenInfo(contract).decimals)} ${tokenInfo(contract).symbol}`;

  const ledger = rowsOf<{ token: string; recorded: string; forwarded: string; in_flight: string; held: string; below: string }>(
    await db.execute(sql`
      select d.token_contract as token,
             coalesce(sum(d.amount), 0)::text as recorded,
             coalesce(sum(d.amount) filter (where f.status = 'completed'), 0)::text as forwarded,
             coalesce(sum(d.amount) filter (where f.status in ('pending', 'gas_sent', 'sweep_sent', 'batched')), 0)::text as in_flight,
             coalesce(sum(d.amount) filter (where f.status = 'held'), 0)::text as held,
             coalesce(sum(d.amount) filter (where d.forward_id is null), 0)::text as below
      from deposits d left join forwards f on f.id = d.forward_id
      where d.network = ${network}
      group by d.token_contract`),
  );
  // The addresses that can hold something (reconcile-coverage.ts); any other holds nothing the ledger knows of.
  const { addresses, coverage } = await addressesToReconcile(db, network, options);
  out.coverage.push(coverage);
  const expectedRows = await expectedOnAddresses(db, network, addresses);
  const heldRows = rowsOf<{ id: number; address: string; token: string; amount: string; reason: string | null }>(
    await db.execute(sql`
      select id, from_address as address, token_contract as token, amount::text as amount, coalesce(held_reason, last_error) as reason
      from forwards where network = ${network} and status = 'held' order by id`),
  );
  const key = (address: string, token: string) => `${address.toLowerCase()} ${token.toLowerCase()}`;
  const expected = new Map(expectedRows.map((r) => [key(r.address, r.token), { expected: BigInt(r.expected), moving: Boolean(r.moving) }]));
  const holdings = await readHoldings(
    network,
    addresses,
    tokens.map((t) => t.contract),
  );
  const onChain = new Map<string, bigint>();
  const untrackedCandidates: { address: Address; token: Address; balance: bigint; expected: bigint }[] = [];

  const shortCandidates: { address: Address; token: Address }[] = [];

  for (const h of holdings) {
    if (h.token === null) continue;
    if (h.unreadable) {
      out.differences.push({
        network,
        kind: "unreadable",
        address: h.owner,
        contract: h.token,
        symbol: tokenInfo(h.token).symbol,
        message: "its balanceOf failed: the chain's side is unknown here",
      });
      continue;
    }
    onChain.set(h.token, (onChain.get(h.token) ?? 0n) + h.balance);
    const want = expected.get(key(h.owner, h.token)) ?? { expected: 0n, moving: false };
    if (want.moving) continue;
    if (h.balance < want.expected) shortCandidates.push({ address: h.owner, token: h.token });
    else if (h.balance > want.expected)
      untrackedCandidates.push({ address: h.owner, token: h.token, balance: h.balance, expected: want.expected });
  }
  // The ledger was read before the chain: a sweep that finished in between looks short. Read both
  // again (ledger first) for the few candidates; what is still short is a difference.
  if (shortCandidates.length > 0) {
    const again = new Map(
      (await expectedOnAddresses(db, network, addresses)).map((r) => [
        key(r.address, r.token),
        { expected: BigInt(r.expected), moving: Boolean(r.moving) },
      ]),
    );
    const now = await readHoldings(
      network,
      [...new Set(shortCandidates.map((c) => c.address))],
      [...new Set(shortCandidates.map((c) => c.token))],
    );
    for (const c of shortCandidates) {
      const want = again.get(key(c.address, c.token)) ?? { expected: 0n, moving: false };
      const balance = now.find((h) => h.owner === c.address && h.token === c.token)?.balance ?? 0n;
      if (!want.moving && balance < want.expected) {
        out.differences.push({
          network,
          kind: "short",
          address: c.address,
          contract: c.token,
          symbol: tokenInfo(c.token).symbol,
          message: `holds ${fmt(c.token, balance)}, the ledger expects ${fmt(c.token, want.expected)} there`,
        });
      }
    }
  }
  // A transfer in the last few blocks is not recorded yet: only what the scanner's block shows too is untracked.
  if (untrackedCandidates.length > 0 && cursorBlock !== null) {
    const atCursor = await readHoldings(
      network,
      [...new Set(untrackedCandidates.map((c) => c.address))],
      [...new Set(untrackedCandidates.map((c) => c.token))],
      cursorBlock,
    );
    for (const c of untrackedCandidates) {
      const then = atCursor.find((h) => h.owner === c.address && h.token === c.token)?.balance ?? 0n;
      const surplus = (then < c.balance ? then : c.balance) - c.expected;
      if (surplus > 0n) {
        out.differences.push({
          network,
          kind: "untracked",
          address: c.address,
          contract: c.token,
          symbol: tokenInfo(c.token).symbol,
          message: `holds ${fmt(c.token, surplus)} more than the ledger knows of (${fmt(c.token, c.balance)} on chain, ${fmt(c.token, c.expected)} expected)`,
        });
      }
    }
  }
  for (const f of heldRows) {
    const contract = getAddress(f.token);
    const symbol = tokenOf.get(contract)?.symbol ?? "?";
    const amount = tokenOf.has(contract) ? fmt(contract, BigInt(f.amount)) : `${f.amount} base units`;
    out.differences.push({
      network,
      kind: "held",
      address: getAddress(f.address),
      contract,
      symbol,
      message: `forward ${f.id} of ${amount} is held: ${f.reason ?? "no reason recorded"} (npm run admin -- forwards retry ${f.id})`,
    });
  }

  await checkWithdrawalWallets(db, network, tokens, fmt, out);
  for (const t of tokens) {
    const row = ledger.find((r) => r.token.toLowerCase() === t.contract.toLowerCase());
    const expectedTotal = expectedRows
      .filter((r) => r.token.toLowerCase() === t.contract.toLowerCase())
      .reduce((sum, r) => sum + BigInt(r.expected), 0n);
    out.tokens.push({
      network,
      ...t,
      recorded: BigInt(row?.recorded ?? 0),
      forwarded: BigInt(row?.forwarded ?? 0),
      inFlight: BigInt(row?.in_flight ?? 0),
      held: BigInt(row?.held ?? 0),
      belowMinimum: BigInt(row?.below ?? 0),
      onDepositAddresses: onChain.get(t.contract) ?? 0n,
      expectedOnDepositAddresses: expectedTotal,
    });
  }
  // BNB itself has no contract: its balances and summary are read apart (reconcile-native.ts).
  await reconcileNative(db, network, cursorBlock, addresses, out);
}

type ExpectedRow = { address: string; token: string; expected: string; moving: boolean };

/**
 * Per deposit address (of `addresses`) and token: the unswept deposits it should still hold, and
 * whether a sweep is moving it. Every address where the ledger expects something is among them
 * (coverage's unforwarded).
 */
async function expectedOnAddresses(db: Db, network: string, addresses: Address[]): Promise<ExpectedRow[]> {
  const rows: ExpectedRow[] = [];
  for (let i = 0; i < addresses.length; i += 1000) {
    const chunk = addresses.slice(i, i + 1000);
    rows.push(
      ...rowsOf<ExpectedRow>(
        await db.execute(sql`
          select d.to_address as address, d.token_contract as token,
                 coalesce(sum(d.amount) filter (where d.forward_id is null or f.status in ('pending', 'held')), 0)::text as expected,
                 bool_or(f.status in ('gas_sent', 'sweep_sent', 'batched')) as moving
          from deposits d left join forwards f on f.id = d.forward_id
          where d.network = ${network} and d.to_address in ${chunk}
          group by d.to_address, d.token_contract`),
      ),
    );
  }
  return rows;
}

/** The network's catalogue tokens that have a contract there. */
async function tokensOf(db: Db, network: string): Promise<TokenInfo[]> {
  const catalogue = await db
    .select({ contract: tokenCatalogue.contractAddress, symbol: tokenCatalogue.symbol, decimals: tokenCatalogue.decimals })
    .from(tokenCatalogue)
    .where(and(eq(tokenCatalogue.network, network)));
  const all = catalogue.map((t) => ({ contract: getAddress(t.contract), symbol: t.symbol, decimals: t.decimals }));
  // A catalogue entry with no contract on this chain (a test chain) can hold nothing and answers nothing.
  const client = publicClientFor(network);
  const deployed = await Promise.all(all.map(async (t) => Boolean(await client.getCode({ address: t.contract }))));
  return all.filter((_, i) => deployed[i]);
}
