/**
 * Token and BNB balances of wallets, read from the chain for pages, cached briefly so a busy
 * dashboard does not turn into an RPC storm; a slow or failing RPC gives null, never an error page.
 */

import { type Address, erc20Abi, formatEther } from "viem";
import { formatAmount } from "../../base/money";
import { isNativeToken } from "../../engine/chain/native";
import { networkConfig, publicClientFor } from "../../engine/chain/networks";

const TTL_MS = 10_000;
const TIMEOUT_MS = 3_000;
const CACHE_KEY = Symbol.for("bsc-pay.wallet-balances");
type Holder = { [CACHE_KEY]?: Map<string, { at: number; value: Promise<bigint | null> }> };

function cache() {
  const holder = globalThis as Holder;
  holder[CACHE_KEY] ??= new Map();
  return holder[CACHE_KEY];
}

function cached(key: string, read: () => Promise<bigint>, fresh = false): Promise<bigint | null> {
  const hit = cache().get(key);
  if (hit && !fresh && Date.now() - hit.at < TTL_MS) return hit.value;
  const value = withTimeout(read()).catch(() => null);
  cache().set(key, { at: Date.now(), value });
  // biome-ignore lint/style/noNonNullAssertion: the cache holds more than 5,000 entries here, so it has a first key
  if (cache().size > 5_000) cache().delete(cache().keys().next().value!);
  return value;
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), TIMEOUT_MS))),
  ]);
}

/** `fresh` skips the cache (a number a decision rests on, like the amount a send may take). */
export async function tokenBalanceOf(
  network: string,
  token: { contractAddress: string; decimals: number },
  wallet: string,
  fresh = false,
): Promise<{ units: bigint; formatted: string } | null> {
  if (!networkConfig(network)) return null;
  const units = await cached(
    `${network}:${token.contractAddress}:${wallet}`,
    () =>
      isNativeToken(token.contractAddress)
        ? publicClientFor(network).getBalance({ address: wallet as Address })
        : publicClientFor(network).readContract({
            address: token.contractAddress as Address,
            abi: erc20Abi,
            functionName: "balanceOf",
            args: [wallet as Address],
          }),
    fresh,
  );
  return units === null ? null : { units, formatted: formatAmount(units, token.decimals) };
}

export async function bnbBalanceOf(network: string, wallet: string, fresh = false): Promise<{ wei: bigint; formatted: string } | null> {
  if (!networkConfig(network)) return null;
  const wei = await cached(`${network}:bnb:${wallet}`, () => publicClientFor(network).getBalance({ address: wallet as Address }), fresh);
  return wei === null ? null : { wei, formatted: formatEther(wei) };
}

/** After a send, the page must show the new balance, not the cached one. */
export function forgetBalances(wallet: string): void {
  for (const key of [...cache().keys()]) if (key.endsWith(`:${wallet}`)) cache().delete(key);
}
