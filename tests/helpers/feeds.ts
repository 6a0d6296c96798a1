/**
 * Test price feeds on anvil (contracts/PriceFeed.sol, Chainlink's AggregatorV3Interface with 8
 * decimals), deployed and moved by anvil's first funded key.
 */
import { type Address, createWalletClient, getAddress, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { priceFeedAbi, priceFeedBytecode } from "@/lib/engine/dev/demo-feeds";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { chainAt, chainClient } from "./chain";

const owner = (url: string) => createWalletClient({ account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[0]), transport: http(url) });

/** A new feed answering `answer` (8 decimals; default 1.00). */
export async function deployTestFeed(url: string, pair: string, answer = 100_000_000n): Promise<Address> {
  const hash = await owner(url).deployContract({
    chain: await chainAt(url),
    abi: priceFeedAbi,
    bytecode: priceFeedBytecode,
    args: [8, pair, answer],
  });
  return getAddress((await chainClient(url).waitForTransactionReceipt({ hash })).contractAddress!);
}

/** The feed's next round: `updatedAt` 0 reads as the block being read (always fresh). */
export async function setTestFeed(url: string, feed: Address, answer: bigint, updatedAt = 0n): Promise<void> {
  const hash = await owner(url).writeContract({
    chain: await chainAt(url),
    address: feed,
    abi: priceFeedAbi,
    functionName: "setRoundData",
    args: [answer, updatedAt],
  });
  await chainClient(url).waitForTransactionReceipt({ hash });
}
