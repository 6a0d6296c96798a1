/**
 * What recovery finds (docs/design.md §16): the tokens to look for — the catalogue's, disallowed ones
 * included, plus any named on the command line — and, wallet by wallet from the mnemonic, every
 * balance of them on the derived deposit addresses and withdrawal wallets. Reads only; nothing
 * here signs or records.
 */
import { eq } from "drizzle-orm";
import { type Address, erc20Abi, getAddress, isAddress } from "viem";
import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { tokenCatalogue } from "../../db/schema";
import { readHoldings } from "../../engine/chain/multicall";
import { publicClientFor } from "../../engine/chain/networks";

/** A derived wallet: deposit address #index, or the withdrawal wallet of domain `index`. */
export interface WalletRef {
  kind: "deposit" | "withdrawal";
  index: number;
  address: Address;
}
export interface TokenRef {
  contract: Address;
  symbol: string;
  decimals: number;
}
/** A balance found on a derived wallet, to be moved. */
export interface StrandedBalance {
  wallet: WalletRef;
  token: TokenRef;
  balance: bigint;
}

/** Every token the gateway ever accepted on the network (disallowed ones too: paid before), plus `extra`. */
export async function tokensToFind(db: Db, network: string, extra: string[], print: (line: string) => void): Promise<TokenRef[]> {
  const catalogue = await db
    .select({ contract: tokenCatalogue.contractAddress, symbol: tokenCatalogue.symbol, decimals: tokenCatalogue.decimals })
    .from(tokenCatalogue)
    .where(eq(tokenCatalogue.network, network));
  const found: TokenRef[] = catalogue.map((t) => ({ contract: getAddress(t.contract), symbol: t.symbol, decimals: t.decimals }));
  const client = publicClientFor(network);
  for (const raw of extra) {
    if (!isAddress(raw, { strict: false })) throw new AppError("VALIDATION_ERROR", `--token ${raw} is not an address`);
    const contract = getAddress(raw);
    if (found.some((t) => t.contract === contract)) continue;
    const [symbol, decimals] = await Promise.all([
      client.readContract({ address: contract, abi: erc20Abi, functionName: "symbol" }),
      client.readContract({ address: contract, abi: erc20Abi, functionName: "decimals" }),
    ]).catch(() => {
      throw new AppError("VALIDATION_ERROR", `--token ${contract} does not answer symbol() and decimals() on ${network}`);
    });
    found.push({ contract, symbol: String(symbol).slice(0, 32), decimals: Number(decimals) });
  }
  // A catalogue entry with no contract behind it on this chain (a test chain, say) holds nothing.
  const deployed = await Promise.all(found.map(async (t) => Boolean(await client.getCode({ address: t.contract }))));
  for (const [i, t] of found.entries()) if (!deployed[i]) print(`  (${t.symbol} ${t.contract} has no contract on ${network}: skipped)`);
  return found.filter((_, i) => deployed[i]);
}

export interface ScanPlan {
  derive: (index: number) => WalletRef;
  from: number;
  to?: number;
  /** The ledger's highest index, if the database still knows it: always scanned. */
  knownUpTo: number;
  gap: number;
}

/**
 * Balances of derived wallets, window by window. With an explicit end, exactly [from, to]; else
 * until `gap` wallets in a row after the last one that ever held something (BNB dust stays on a
 * swept deposit address, so "held something" also finds used and emptied ones).
 */
export async function scanWallets(network: string, tokens: TokenRef[], plan: ScanPlan) {
  const wallets: WalletRef[] = [];
  const stranded: StrandedBalance[] = [];
  const unreadable: { wallet: WalletRef; token: TokenRef }[] = [];
  let lastUsed = Math.max(plan.knownUpTo, plan.from - 1);
  let start = plan.from;
  const window = plan.to !== undefined ? Math.max(1, Math.min(plan.gap, plan.to - plan.from + 1)) : plan.gap;
  for (;;) {
    const end = plan.to !== undefined ? Math.min(plan.to, start + window - 1) : start + window - 1;
    const batch = Array.from({ length: end - start + 1 }, (_, i) => plan.derive(start + i));
    wallets.push(...batch);
    const holdings = await readHoldings(
      network,
      batch.map((w) => w.address),
      tokens.map((t) => t.contract),
    );
    // readHoldings answers for exactly the owners and tokens it was asked about: both are found.
    const byOwner = new Map(batch.map((w) => [w.address, w]));
    const walletOf = (owner: Address): WalletRef => {
      const wallet = byOwner.get(owner);
      if (!wallet) throw new Error(`recover: a balance of ${owner}, which was not asked for`);
      return wallet;
    };
    const tokenOf = (contract: Address): TokenRef => {
      const token = tokens.find((t) => t.contract === contract);
      if (!token) throw new Error(`recover: a balance of ${contract}, which was not asked for`);
      return token;
    };
    for (const h of holdings) {
      if (h.unreadable && h.token !== null) unreadable.push({ wallet: walletOf(h.owner), token: tokenOf(h.token) });
      if (h.balance === 0n) continue;
      const wallet = walletOf(h.owner);
      lastUsed = Math.max(lastUsed, wallet.index);
      if (h.token !== null) stranded.push({ wallet, token: tokenOf(h.token), balance: h.balance });
    }
    if (plan.to !== undefined ? end >= plan.to : end >= lastUsed + plan.gap)
      return { wallets, stranded, unreadable, range: [plan.from, end] as [number, number] };
    start = end + 1;
  }
}
