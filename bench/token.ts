import { type Address, createPublicClient, createWalletClient, getAddress, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_DEFAULT_KEYS, demoTokenAbi, demoTokenBytecode } from "@/lib/engine/dev/demo-token";

/** Deploys a DemoToken on the bench anvil and mints a million to each of anvil's first accounts. */
export async function deployBenchToken(url: string, decimals = 18): Promise<Address> {
  const client = createPublicClient({ transport: http(url) });
  const chain = {
    id: await client.getChainId(),
    name: "bench",
    nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  };
  const wallet = createWalletClient({ account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[0]!), chain, transport: http(url) });
  const hash = await wallet.deployContract({ abi: demoTokenAbi, bytecode: demoTokenBytecode, args: ["Bench USD", "BUSD", decimals] });
  const address = getAddress((await client.waitForTransactionReceipt({ hash })).contractAddress!);
  for (const key of ANVIL_DEFAULT_KEYS) {
    const mint = await wallet.writeContract({
      address,
      abi: demoTokenAbi,
      functionName: "mint",
      args: [privateKeyToAccount(key).address, parseUnits("1000000", decimals)],
    });
    await client.waitForTransactionReceipt({ hash: mint });
  }
  return address;
}
