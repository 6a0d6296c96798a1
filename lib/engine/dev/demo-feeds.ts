/**
 * The local chain's price feeds (docs/design.md §23): BNB/USD, DUSD/USD and EUR/USD, each a PriceFeed
 * (contracts/PriceFeed.sol, Chainlink's AggregatorV3Interface) deployed by a fixed key, so their
 * addresses are the same on every fresh anvil and migration 0031 can name them. Their rounds follow
 * the chain's clock (updatedAt = the block read), so a dev chain left running for days never
 * serves a stale price; `setDemoFeedRound` pins an answer and time (a de-peg, a stale feed).
 */

import {
  type Abi,
  type Address,
  createTestClient,
  createWalletClient,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  parseEther,
  publicActions,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import artifact from "../chain/contracts/price-feed.json";

export const priceFeedAbi = artifact.abi as Abi;
export const priceFeedBytecode = artifact.bytecode as Hex;

const FEED_DEPLOYER_KEY = keccak256(toHex("bsc-pay/local-price-feed-deployer"));
export const demoFeedDeployer = privateKeyToAccount(FEED_DEPLOYER_KEY);

/** Chainlink's USD feeds answer with 8 decimals. */
export const DEMO_FEED_DECIMALS = 8;

/** In deployment order: the deployer's nonce n made feed n. */
export const DEMO_FEEDS = [
  { pair: "BNB / USD", answer: 600_00000000n },
  { pair: "DUSD / USD", answer: 1_00000000n },
  { pair: "EUR / USD", answer: 1_08000000n },
].map((feed, nonce) => ({ ...feed, address: getContractAddress({ from: demoFeedDeployer.address, nonce: BigInt(nonce) }) }));

// biome-ignore lint/style/noNonNullAssertion: DEMO_FEEDS is the literal list just above, three entries
export const DEMO_BNB_USD_FEED: Address = DEMO_FEEDS[0]!.address;
// biome-ignore lint/style/noNonNullAssertion: as above
export const DEMO_DUSD_USD_FEED: Address = DEMO_FEEDS[1]!.address;
// biome-ignore lint/style/noNonNullAssertion: as above
export const DEMO_EUR_USD_FEED: Address = DEMO_FEEDS[2]!.address;

function clients(rpcUrl: string, chainId: number) {
  const client = createTestClient({ mode: "anvil", transport: http(rpcUrl) }).extend(publicActions);
  const wallet = createWalletClient({
    account: demoFeedDeployer,
    chain: {
      id: chainId,
      name: "local",
      nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    },
    transport: http(rpcUrl),
  });
  return { client, wallet };
}

/** Makes sure the demo feeds exist on the local chain (deploying the missing ones on a fresh chain). */
export async function ensureDemoFeeds(rpcUrl: string): Promise<Address[]> {
  const probe = createTestClient({ mode: "anvil", transport: http(rpcUrl) }).extend(publicActions);
  const codes = await Promise.all(DEMO_FEEDS.map((feed) => probe.getCode({ address: feed.address })));
  const missing = DEMO_FEEDS.map((feed, nonce) => ({ ...feed, nonce })).filter((_, i) => !codes[i] || codes[i] === "0x");
  if (missing.length === 0) return DEMO_FEEDS.map((feed) => feed.address);

  const { client, wallet } = clients(rpcUrl, await probe.getChainId());
  const sent = await client.getTransactionCount({ address: demoFeedDeployer.address });
  // biome-ignore lint/style/noNonNullAssertion: missing is not empty (returned above when it was)
  if (sent !== missing[0]!.nonce) throw new Error("the price feed deployer has sent transactions but a demo feed is missing");
  await client.setBalance({ address: demoFeedDeployer.address, value: parseEther("100") });
  // Explicit nonces: the deployments share a block instead of one block each.
  const hashes: Hex[] = [];
  for (const feed of missing) {
    hashes.push(
      await wallet.deployContract({
        abi: priceFeedAbi,
        bytecode: priceFeedBytecode,
        args: [DEMO_FEED_DECIMALS, feed.pair, feed.answer],
        nonce: feed.nonce,
      }),
    );
  }
  for (const hash of hashes) {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    if (receipt.status !== "success") throw new Error(`demo feed deployment ${hash} reverted`);
  }
  return DEMO_FEEDS.map((feed) => feed.address);
}

/**
 * Starts a new round on a demo feed (the local chain and the tests): `answer` in the feed's units
 * (8 decimals: 0.96 USD = 96_000_000n), `updatedAt` in unix seconds, or 0/undefined to follow the
 * chain's clock again. Returns once the round is mined.
 */
export async function setDemoFeedRound(rpcUrl: string, feed: Address, round: { answer: bigint; updatedAt?: bigint }): Promise<void> {
  const probe = createTestClient({ mode: "anvil", transport: http(rpcUrl) }).extend(publicActions);
  const { client, wallet } = clients(rpcUrl, await probe.getChainId());
  const hash = await wallet.writeContract({
    address: feed,
    abi: priceFeedAbi,
    functionName: "setRoundData",
    args: [round.answer, round.updatedAt ?? 0n],
    gas: 200_000n,
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (receipt.status !== "success") throw new Error(`setting round on ${feed} reverted`);
}
