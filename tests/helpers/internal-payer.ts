import { type Abi, type Address, createWalletClient, getAddress, type Hex, http, type TransactionReceipt } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { chainAt, chainClient } from "./chain";
import artifact from "./contracts/internal-payer.json";

export const internalPayerAbi = artifact.abi as Abi;

/**
 * A contract that pays BNB with an internal call (contracts/test/InternalPayer.sol), as a Safe, a
 * 4337 wallet or an exchange's hot wallet does: the transaction goes to it, the deposit address
 * receives the value from inside it. `pay` sends from anvil's payer key (or `key`).
 */
export async function deployInternalPayer(url: string): Promise<{
  address: Address;
  pay: (to: Address, value: bigint, key?: Hex) => Promise<TransactionReceipt>;
  payMany: (to: Address[], amounts: bigint[], key?: Hex) => Promise<TransactionReceipt>;
}> {
  const client = chainClient(url);
  const chain = await chainAt(url);
  const walletOf = (key: Hex) => createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(url) });
  const deployer = walletOf(ANVIL_DEFAULT_KEYS[2] as Hex);
  const hash = await deployer.deployContract({ abi: internalPayerAbi, bytecode: artifact.bytecode as Hex });
  const { contractAddress } = await client.waitForTransactionReceipt({ hash });
  const address = getAddress(contractAddress as Address);
  const payer = ANVIL_DEFAULT_KEYS[1] as Hex;
  return {
    address,
    pay: async (to, value, key = payer) =>
      client.waitForTransactionReceipt({
        hash: await walletOf(key).writeContract({ address, abi: internalPayerAbi, functionName: "pay", args: [to], value }),
      }),
    payMany: async (to, amounts, key = payer) =>
      client.waitForTransactionReceipt({
        hash: await walletOf(key).writeContract({
          address,
          abi: internalPayerAbi,
          functionName: "payMany",
          args: [to, amounts],
          value: amounts.reduce((a, b) => a + b, 0n),
        }),
      }),
  };
}
