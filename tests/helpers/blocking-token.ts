import { type Abi, type Address, createWalletClient, getAddress, type Hex, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { chainAt, chainClient } from "./chain";
import artifact from "./contracts/blocking-token.json";

export const blockingAbi = artifact.abi as Abi;

/** A BEP-20 (18 decimals) whose owner can block recipients: a transfer to a blocked one reverts. */
export async function deployBlockingToken(
  url: string,
  mintTo: Address[],
): Promise<{ address: Address; block: (who: Address) => Promise<void> }> {
  const client = chainClient(url);
  const owner = privateKeyToAccount(ANVIL_DEFAULT_KEYS[2] as Hex);
  const wallet = createWalletClient({ account: owner, chain: await chainAt(url), transport: http(url) });
  const hash = await wallet.deployContract({ abi: blockingAbi, bytecode: artifact.bytecode as Hex });
  const { contractAddress } = await client.waitForTransactionReceipt({ hash });
  const address = getAddress(contractAddress as Address);
  for (const to of mintTo) {
    const h = await wallet.writeContract({ address, abi: blockingAbi, functionName: "mint", args: [to, parseUnits("1000000", 18)] });
    await client.waitForTransactionReceipt({ hash: h });
  }
  return {
    address,
    block: async (who) => {
      const h = await wallet.writeContract({ address, abi: blockingAbi, functionName: "setBlocked", args: [who, true] });
      await client.waitForTransactionReceipt({ hash: h });
    },
  };
}
