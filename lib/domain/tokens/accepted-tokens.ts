/**
 * Enabled catalogue contracts per network with their minimum payment, cached for a few seconds:
 * payment/create asks on every call, and an operator's `tokens disallow` or new `--min-payment`
 * (possibly from another process) takes effect within the cache's life.
 */

import { and, eq } from "drizzle-orm";
import type { Db } from "../../db";
import { tokenCatalogue } from "../../db/schema";
import { minimumPayment } from "./minimum-payment";

const TTL_MS = 5_000;
const CACHE_KEY = Symbol.for("bsc-pay.accepted-tokens");
type Entry = { at: number; contracts: Promise<Map<string, bigint>> };
type Holder = { [CACHE_KEY]?: Map<string, Entry> };

function cache(): Map<string, Entry> {
  const holder = globalThis as Holder;
  holder[CACHE_KEY] ??= new Map();
  return holder[CACHE_KEY];
}

export async function isAcceptedToken(db: Db, network: string, contract: string): Promise<boolean> {
  return (await acceptedTokenMinimum(db, network, contract)) !== null;
}

/** The token's minimum payment in base units (catalogue.ts minimumPayment), or null when it is not accepted. */
export async function acceptedTokenMinimum(db: Db, network: string, contract: string): Promise<bigint | null> {
  const now = Date.now();
  let entry = cache().get(network);
  if (!entry || now - entry.at > TTL_MS) {
    entry = { at: now, contracts: load(db, network) };
    cache().set(network, entry);
    entry.contracts.catch(() => cache().delete(network));
  }
  return (await entry.contracts).get(contract.toLowerCase()) ?? null;
}

/** After a change made in this process, don't wait for the cache to expire. */
export function forgetAcceptedTokens(): void {
  cache().clear();
}

async function load(db: Db, network: string): Promise<Map<string, bigint>> {
  const rows = await db
    .select({
      contract: tokenCatalogue.contractAddress,
      minPaymentAmount: tokenCatalogue.minPaymentAmount,
      minForwardAmount: tokenCatalogue.minForwardAmount,
    })
    .from(tokenCatalogue)
    .where(and(eq(tokenCatalogue.network, network), eq(tokenCatalogue.enabled, true)));
  return new Map(rows.map((r) => [r.contract.toLowerCase(), minimumPayment(r)]));
}
