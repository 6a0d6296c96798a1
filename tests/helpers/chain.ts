import {
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseUnits,
  publicActions,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll } from "vitest";
import { type AnvilNode, type AnvilOptions, startAnvil } from "@/lib/engine/dev/anvil";
import { ANVIL_DEFAULT_KEYS, demoTokenAbi, demoTokenBytecode } from "@/lib/engine/dev/demo-token";

export const payerKey: Hex = ANVIL_DEFAULT_KEYS[1]!;
export const payer = privateKeyToAccount(payerKey);
const deployer = privateKeyToAccount(ANVIL_DEFAULT_KEYS[2]!);

export interface TestChain {
  node: AnvilNode;
  url: string;
  client: ReturnType<typeof chainClient>;
}

/** The anvil's chain id varies per test (31337, or 56 when it plays BSC): read it from the node. */
export async function chainAt(url: string): Promise<Chain> {
  const id = await createPublicClient({ transport: http(url) }).getChainId();
  return { ...foundry, id };
}

export function chainClient(url: string) {
  return createTestClient({ mode: "anvil", transport: http(url) }).extend(publicActions);
}

/** A fresh anvil on a free port for one test file (automine unless blockTime is given). */
export function useTestChain(options: AnvilOptions = {}): () => TestChain {
  let chain: TestChain | undefined;
  beforeAll(async () => {
    const node = await startAnvil(options);
    chain = { node, url: node.url, client: chainClient(node.url) };
  });
  afterAll(async () => {
    await chain?.node.stop();
  });
  return () => {
    if (!chain) throw new Error("test chain not ready");
    return chain;
  };
}

/** Deploys a DemoToken with the given decimals and mints `mintTo` a million whole tokens. */
export async function deployTestToken(
  url: string,
  { symbol = "TST", decimals = 18, mintTo = [payer.address] }: { symbol?: string; decimals?: number; mintTo?: Address[] } = {},
): Promise<Address> {
  const client = chainClient(url);
  const wallet = createWalletClient({ account: deployer, chain: await chainAt(url), transport: http(url) });
  const hash = await wallet.deployContract({
    abi: demoTokenAbi,
    bytecode: demoTokenBytecode,
    args: [`${symbol} Token`, symbol, decimals],
  });
  const { contractAddress } = await client.waitForTransactionReceipt({ hash });
  for (const to of mintTo) {
    const mintHash = await wallet.writeContract({
      address: contractAddress!,
      abi: demoTokenAbi,
      functionName: "mint",
      args: [to, parseUnits("1000000", decimals)],
    });
    await client.waitForTransactionReceipt({ hash: mintHash });
  }
  return getAddress(contractAddress!);
}
