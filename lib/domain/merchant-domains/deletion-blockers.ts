import { and, count, eq } from "drizzle-orm";
import { type Address, erc20Abi } from "viem";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { type Domain, paymentSessions, tokens, withdrawals } from "../../db/schema";
import { networkConfig, publicClientFor } from "../../engine/chain/networks";
import { serviceAddresses } from "../../engine/chain/wallet-addresses";

/**
 * What must happen before a domain may be deleted, each said as what to do first: payments still
 * pending (they would lose their webhooks and checkout context), withdrawals from its wallet not
 * final yet, and tokens left in its withdrawal wallet (withdraw them; the wallet is only reachable
 * through the domain). A balance that cannot be read blocks too: unknown is not "empty".
 */
export async function domainDeletionBlockers(db: Db, userId: number, domain: Domain): Promise<string[]> {
  const blockers: string[] = [];
  const [pending] = await db
    .select({ n: count() })
    .from(paymentSessions)
    .where(and(eq(paymentSessions.domainId, domain.id), eq(paymentSessions.status, "pending")));
  const pendingCount = pending?.n ?? 0;
  if (pendingCount > 0) blockers.push(`${pendingCount} payment session(s) are still pending: cancel them or let them end`);
  const [open] = await db
    .select({ n: count() })
    .from(withdrawals)
    .where(and(eq(withdrawals.domainId, domain.id), eq(withdrawals.status, "submitted")));
  const openCount = open?.n ?? 0;
  if (openCount > 0) blockers.push(`${openCount} withdrawal(s) from its wallet are not final yet: wait until they complete`);

  const wallet = serviceAddresses().withdrawal(domain.id);
  const own = await db.select().from(tokens).where(eq(tokens.userId, userId));
  for (const token of own.filter((t) => networkConfig(t.network))) {
    const balance = await publicClientFor(token.network)
      .readContract({ address: token.contractAddress as Address, abi: erc20Abi, functionName: "balanceOf", args: [wallet] })
      .catch(() => null);
    if (balance === null)
      blockers.push(`the ${token.symbol} balance of its withdrawal wallet ${wallet} cannot be read right now: try again`);
    else if (balance > 0n)
      blockers.push(`its withdrawal wallet ${wallet} holds ${formatAmount(balance, token.decimals)} ${token.symbol}: withdraw it first`);
  }
  return blockers;
}
