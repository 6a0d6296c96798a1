import { and, eq, sql } from "drizzle-orm";
import { type Address, formatUnits, getAddress } from "viem";
import { keyRingFor } from "../chain/keys";
import { readHoldings } from "../chain/multicall";
import { listNetworks, publicClientFor } from "../chain/networks";
import { getConfig } from "../config";
import type { Db } from "../db";
import { rowsOf } from "../db/rows";
import { appState, chainCursors, tokenCatalogue } from "../db/schema";
import { nonceTakenDifferences, paidAfterFailedDifferences } from "./reconcile-ledger";

/**
 * Ledger against chain (DESIGN.md §16). For every token: what the ledger says about deposits
 * (recorded, forwarded, in flight, held, waiting below the minimum) and what the deposit addresses
 * and withdrawal wallets really hold. A difference is anything an operator must look at:
 * - a held forward (money that should have moved and did not);
 * - a deposit address holding less than the ledger's unswept deposits there (short), or more
 *   than them at both the latest and the scanner's block (untracked: sent behind the ledger's
 *   back, or missed);
 * - a withdrawal wallet holding less than it received through forwards minus what it sent and is
 *   sending (tokens left it without a record). More is fine: merchants fund their wallets.
 * - a nonce of a service wallet that the ledger saw go to a transaction the service never signed;
 * - a withdrawal recorded failed whose transfer was mined after all (rows from before the ledger).
 * Addresses with a sweep in flight are left for the next run (their balance is moving).
 */
export interface TokenSummary {
  network: string;
  contract: Address;
  symbol: string;
  decimals: number;
  recorded: bigint;
  forwarded: bigint;
  inFlight: bigint;
  held: bigint;
  belowMinimum: bigint;
  /** What the deposit addresses hold on chain, and what the ledger says they should. */
  onDepositAddresses: bigint;
  expectedOnDepositAddresses: bigint;
}

export interface Difference {
  network: string;
  kind: "held" | "short" | "untracked" | "wallet-short" | "unreadable" | "nonce-taken" | "paid-after-failed";
  address: Address;
  contract: Address;
  symbol: string;
  /** In the token's units, for people. */
  message: string;
}

export interface Reconciliation {
  ranAt: string;
  networks: { network: string; block: string | null }[];
  tokens: TokenSummary[];
  differences: Difference[];
}

export const RECONCILIATION_STATE_KEY = "reconciliation";

export async function reconcile(db: Db, options: { network?: string } = {}): Promise<Reconciliation> {
  const networks = listNetworks().filter((n) => !options.network || n.name === options.network);
  const result: Reconciliation = { ranAt: new Date().toISOString(), networks: [], tokens: [], differences: [] };
  for (const network of networks) {
    const [cursor] = await db.select().from(chainCursors).where(eq(chainCursors.network, network.name));
    result.networks.push({ network: network.name, block: cursor ? String(cursor.lastScannedBlock) : null });
    await reconcileNetwork(db, network.name, cursor?.lastScannedBlock ?? null, result);
    result.differences.push(...(await nonceTakenDifferences(db, network.name)), ...(await paidAfterFailedDifferences(db, network.name)));
  }
  return result;
}

interface TokenInfo {
  contract: Address;
  symbol: string;
  decimals: number;
}

async function reconcileNetwork(db: Db, network: string, cursorBlock: bigint | null, out: Reconciliation): Promise<void> {
  const tokens = await tokensOf(db, network);
  if (tokens.length === 0) return;
  const tokenOf = new Map(tokens.map((t) => [t.contract, t]));
  const fmt = (contract: Address, units: bigint) =>
    `${formatUnits(units, tokenOf.get(contract)!.decimals)} ${tokenOf.get(contract)!.symbol}`;

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
  const expectedRows = await expectedOnAddresses(db, network);
  const heldRows = rowsOf<{ id: number; address: string; token: string; amount: string; reason: string | null }>(
    await db.execute(sql`
      select id, from_address as address, token_contract as token, amount::text as amount, coalesce(held_reason, last_error) as reason
      from forwards where network = ${network} and status = 'held' order by id`),
  );
  const addresses = rowsOf<{ address: string }>(
    await db.execute(sql`select deposit_address as address from payment_sessions where network = ${network}`),
  ).map((r) => getAddress(r.address));

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
        symbol: tokenOf.get(h.token)!.symbol,
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
      (await expectedOnAddresses(db, network)).map((r) => [
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
          symbol: tokenOf.get(c.token)!.symbol,
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
          symbol: tokenOf.get(c.token)!.symbol,
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
}

/** Each domain's withdrawal wallet must still hold what forwards brought it, less what it sent and is sending. */
async function checkWithdrawalWallets(
  db: Db,
  network: string,
  tokens: TokenInfo[],
  fmt: (c: Address, u: bigint) => string,
  out: Reconciliation,
) {
  const keys = keyRingFor(getConfig().masterMnemonic);
  const domainIds = rowsOf<{ id: number }>(await db.execute(sql`select id from domains order by id`)).map((r) => Number(r.id));
  if (domainIds.length === 0) return;
  const wallets = domainIds.map((id) => ({ id, address: keys.withdrawalAddress(id) }));
  const readFlows = async () =>
    rowsOf<{ address: string; token: string; received: string; sent: string }>(
      await db.execute(sql`
      select address, token, sum(received)::text as received, sum(sent)::text as sent from (
        select lower(to_address) as address, lower(token_contract) as token, amount as received, 0 as sent
        from forwards where network = ${network} and status = 'completed'
        union all
        select lower(w.from_address), lower(t.contract_address), 0, w.amount
        from withdrawals w join tokens t on t.id = w.token_id
        where w.network = ${network} and w.status in ('submitted', 'completed')
      ) flows group by address, token`),
    );
  const short = async (flows: Awaited<ReturnType<typeof readFlows>>, owners: Address[]) =>
    (
      await readHoldings(
        network,
        owners,
        tokens.map((t) => t.contract),
      )
    ).flatMap((h) => {
      const flow =
        h.token === null || h.unreadable
          ? undefined
          : flows.find((f) => f.address === h.owner.toLowerCase() && f.token === h.token!.toLowerCase());
      const floor = flow ? BigInt(flow.received) - BigInt(flow.sent) : 0n;
      return flow && h.balance < floor ? [{ ...h, token: h.token!, flow, floor }] : [];
    });
  const first = await short(
    await readFlows(),
    wallets.map((w) => w.address),
  );
  // Read again (ledger first) for the few that look short: a withdrawal recorded and mined between the two reads is not one.
  const again = first.length === 0 ? [] : await short(await readFlows(), [...new Set(first.map((h) => h.owner))]);
  const confirmed = again.filter((h) => first.some((f) => f.owner === h.owner && f.token === h.token));
  for (const { owner, token, balance, flow, floor } of confirmed) {
    const domainId = wallets.find((w) => w.address === owner)!.id;
    out.differences.push({
      network,
      kind: "wallet-short",
      address: owner,
      contract: token,
      symbol: tokens.find((t) => t.contract === token)!.symbol,
      message: `withdrawal wallet of domain ${domainId} holds ${fmt(token, balance)}; forwards brought ${fmt(token, BigInt(flow.received))} and withdrawals took ${fmt(token, BigInt(flow.sent))}, so it should hold at least ${fmt(token, floor)}`,
    });
  }
}

/** Per deposit address and token: the unswept deposits it should still hold, and whether a sweep is moving it. */
async function expectedOnAddresses(db: Db, network: string) {
  return rowsOf<{ address: string; token: string; expected: string; moving: boolean }>(
    await db.execute(sql`
      select d.to_address as address, d.token_contract as token,
             coalesce(sum(d.amount) filter (where d.forward_id is null or f.status in ('pending', 'held')), 0)::text as expected,
             bool_or(f.status in ('gas_sent', 'sweep_sent', 'batched')) as moving
      from deposits d left join forwards f on f.id = d.forward_id
      where d.network = ${network}
      group by d.to_address, d.token_contract`),
  );
}

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

/** The last run, for /api/health and `admin status`. */
export async function saveReconciliation(db: Db, result: Reconciliation): Promise<void> {
  const value = {
    ranAt: result.ranAt,
    differences: result.differences.length,
    networks: result.networks,
    details: result.differences.slice(0, 50).map((d) => `${d.network} ${d.kind} ${d.address}: ${d.message}`),
  };
  await db
    .insert(appState)
    .values({ key: RECONCILIATION_STATE_KEY, value })
    .onConflictDoUpdate({ target: appState.key, set: { value, updatedAt: new Date() } });
}

export interface LastReconciliation {
  ranAt: string;
  differences: number;
  details: string[];
}

export async function lastReconciliation(db: Db): Promise<LastReconciliation | null> {
  const [row] = await db.select().from(appState).where(eq(appState.key, RECONCILIATION_STATE_KEY));
  return row ? (row.value as LastReconciliation) : null;
}

/** The report an operator reads (and cron mails). */
export function formatReconciliation(r: Reconciliation): string[] {
  const lines = [
    `reconciliation at ${r.ranAt} (${r.networks.map((n) => `${n.network} up to block ${n.block ?? "none scanned"}`).join(", ")})`,
  ];
  for (const t of r.tokens) {
    const f = (u: bigint) => formatUnits(u, t.decimals);
    lines.push(
      `${t.network} ${t.symbol} ${t.contract}`,
      `  ledger: recorded ${f(t.recorded)}, forwarded ${f(t.forwarded)}, in flight ${f(t.inFlight)}, held ${f(t.held)}, below minimum ${f(t.belowMinimum)}`,
      `  chain:  deposit addresses hold ${f(t.onDepositAddresses)} (the ledger expects ${f(t.expectedOnDepositAddresses)})`,
    );
  }
  if (r.differences.length === 0) lines.push("no differences");
  else {
    lines.push(`${r.differences.length} difference(s):`);
    for (const d of r.differences) lines.push(`  ${d.kind.toUpperCase()} ${d.network} ${d.address} ${d.symbol}: ${d.message}`);
  }
  return lines;
}
