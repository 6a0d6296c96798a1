import { type Address, createPublicClient, createWalletClient, erc20Abi, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** Pays `amount` base units of `token` and returns the wall-clock time its receipt was seen (±50 ms). */
export async function payFrom(url: string, key: Hex, token: Address, to: Address, amount: bigint): Promise<number> {
  const client = createPublicClient({ transport: http(url) });
  const chain = {
    id: await client.getChainId(),
    name: "bench",
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  };
  const wallet = createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(url) });
  const hash = await wallet.writeContract({ address: token, abi: erc20Abi, functionName: "transfer", args: [to, amount] });
  await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return Date.now();
}
