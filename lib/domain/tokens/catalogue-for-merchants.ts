import { and, eq } from "drizzle-orm";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { tokenCatalogue, tokens } from "../../db/schema";
import { listNetworks } from "../../engine/chain/networks";

/** The tokens a merchant may register: enabled catalogue entries on the networks this server serves. */
export async function acceptedTokensFor(db: Db, userId: number) {
  const served = new Set<string>(listNetworks().map((n) => n.name));
  const [catalogue, mine] = await Promise.all([
    db.select().from(tokenCatalogue).where(eq(tokenCatalogue.enabled, true)).orderBy(tokenCatalogue.network, tokenCatalogue.symbol),
    db
      .select({ network: tokens.network, contract: tokens.contractAddress })
      .from(tokens)
      .where(and(eq(tokens.userId, userId))),
  ]);
  const registered = new Set(mine.map((t) => `${t.network}:${t.contract}`));
  return catalogue
    .filter((t) => served.has(t.network))
    .map((t) => ({
      network: t.network,
      contractAddress: t.contractAddress,
      symbol: t.symbol,
      name: t.name,
      decimals: t.decimals,
      minForward: formatAmount(t.minForwardAmount, t.decimals),
      registered: registered.has(`${t.network}:${t.contractAddress}`),
    }));
}
