import { type Abi, type Address, createWalletClient, getAddress, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { chainAt, chainClient } from "./chain";
import artifact from "./contracts/hostile-token.json";

/** The attacker's token (contracts/test/HostileToken.sol), deployed and driven by its owner. */
export const hostileAbi = artifact.abi as Abi;
const owner = privateKeyToAccount(ANVIL_DEFAULT_KEYS[2]!);

export interface HostileToken {
  address: Address;
  call(functionName: string, args?: unknown[], from?: Hex): Promise<void>;
}

export async function deployHostileToken(url: string, symbol = "EVIL", decimals = 18): Promise<HostileToken> {
  const client = chainClient(url);
  const chain = await chainAt(url);
  const wallet = createWalletClient({ account: owner, chain, transport: http(url) });
  const hash = await wallet.deployContract({
    abi: hostileAbi,
    bytecode: artifact.bytecode as Hex,
    args: [`${symbol} Token`, symbol, decimals],
  });
  const address = getAddress((await client.waitForTransactionReceipt({ hash })).contractAddress!);
  return {
    address,
    async call(functionName, args = [], from) {
      const account = from ? privateKeyToAccount(from) : owner;
      const sender = createWalletClient({ account, chain, transport: http(url) });
      const tx = await sender.writeContract({ address, abi: hostileAbi, functionName, args, gas: 10_000_000n });
      const receipt = await client.waitForTransactionReceipt({ hash: tx });
      if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
    },
  };
}
