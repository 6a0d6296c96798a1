/**
 * The withdrawal wallets' side of reconciliation: each domain's wallet must still hold what
 * forwards brought it, less what it sent and is sending (withdrawals and payout items). Less is a difference ("wallet-short":
 * tokens left without a record); more is fine, merchants fund their wallets.
 */
import { sql } from "drizzle-orm";
import type { Address } from "viem";
import type { Db } from "../../db";
import { rowsOf } from "../../db/rows";
import { readHoldings } from "../../engine/chain/multicall";
import { serviceAddresses } from "../../engine/chain/wallet-addresses";
import type { Reconciliation, TokenInfo } from "./reconcile-report";

/** A "wallet-short" difference for every withdrawal wallet and token below that floor, read twice (ledger first). */
export async function checkWithdrawalWallets(
  db: Db,
  network: string,
  tokens: TokenInfo[],
  fmt: (c: Address, u: bigint) => string,
  out: Reconciliation,
) {
  const keys = serviceAddresses();
  const domainIds = rowsOf<{ id: number }>(await db.execute(sql`select id from domains order by id`)).map((r) => Number(r.id));
  if (domainIds.length === 0) return;
  const wallets = domainIds.map((id) => ({ id, address: keys.withdrawal(id) }));
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
        union all
        select lower(b.from_address), lower(t.contract_address), 0, i.amount
        from payout_items i join payout_batches b on b.id = i.batch_id join tokens t on t.id = b.token_id
        where b.network = ${network} and i.status in ('sending', 'completed')
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
      const token = h.token;
      if (token === null || h.unreadable) return [];
      const flow = flows.find((f) => f.address === h.owner.toLowerCase() && f.token === token.toLowerCase());
      const floor = flow ? BigInt(flow.received) - BigInt(flow.sent) : 0n;
      return flow && h.balance < floor ? [{ ...h, token, flow, floor }] : [];
    });
  const first = await short(
    await readFlows(),
    wallets.map((w) => w.address),
  );
  // Read again (ledger first) for the few that look short: a withdrawal recorded and mined between the two reads is not one.
  const again = first.length === 0 ? [] : await short(await readFlows(), [...new Set(first.map((h) => h.owner))]);
  const confirmed = again.filter((h) => first.some((f) => f.owner === h.owner && f.token === h.token));
  for (const { owner, token, balance, flow, floor } of confirmed) {
    // readHoldings answers for exactly the owners and tokens it was asked about: both are found.
    const wallet = wallets.find((w) => w.address === owner);
    const symbol = tokens.find((t) => t.contract === token)?.symbol;
    if (!wallet || symbol === undefined) throw new Error(`reconcile: a balance of ${token} on ${owner} that was never asked for`);
    out.differences.push({
      network,
      kind: "wallet-short",
      address: owner,
      contract: token,
      symbol,
      message: `withdrawal wallet of domain ${wallet.id} holds ${fmt(token, balance)}; forwards brought ${fmt(token, BigInt(flow.received))} and withdrawals took ${fmt(token, BigInt(flow.sent))}, so it should hold at least ${fmt(token, floor)}`,
    });
  }
}
