/**
 * Fiat prices from feeds on a real chain (docs/design.md §23): the demo feeds deployed at their fixed
 * addresses, every feed read in one multicall (hostile ones beside honest ones), and the rules on
 * live answers — a stablecoin moved to 0.99 (offPeg), to 0.96 (not offered), a stale round.
 */

import { eq } from "drizzle-orm";
import { type Address, createWalletClient, getAddress, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currencyFeeds, tokenCatalogue } from "@/lib/db/schema";
import { parseFiatAmount } from "@/lib/domain/pricing/fiat";
import { pricedCatalogueToken, quoteTokensOnChain } from "@/lib/domain/pricing/price-tokens";
import type { PricedToken } from "@/lib/domain/pricing/quote-tokens";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { forgetMulticall, MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { readPriceFeeds } from "@/lib/engine/chain/price-feeds";
import {
  DEMO_BNB_USD_FEED,
  DEMO_DUSD_USD_FEED,
  DEMO_EUR_USD_FEED,
  DEMO_FEEDS,
  demoFeedDeployer,
  ensureDemoFeeds,
  priceFeedAbi,
  priceFeedBytecode,
  setDemoFeedRound,
} from "@/lib/engine/dev/demo-feeds";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { chainAt, deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import hostileFeed from "../helpers/contracts/hostile-feed.json";
import { useTestDatabase } from "../helpers/database";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
let proxy: RpcProxy;
let usd18: Address;
let usd6: Address;
const hostile: Record<"reverts" | "short" | "burnsGas" | "decimals37" | "negative" | "future", Address> = {} as never;

const deployer = () => createWalletClient({ account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[0]), transport: http(chain().url) });
async function deploy(abi: unknown, bytecode: string, args: unknown[]): Promise<Address> {
  const hash = await deployer().deployContract({
    chain: await chainAt(chain().url),
    abi: abi as never,
    bytecode: bytecode as Hex,
    args: args as never,
  });
  const receipt = await chain().client.waitForTransactionReceipt({ hash });
  return getAddress(receipt.contractAddress!);
}
async function blockTime(): Promise<number> {
  return Number((await chain().client.getBlock()).timestamp);
}
const usd = (value: string) => {
  const fiat = parseFiatAmount("USD", value);
  if (!fiat.ok) throw new Error(fiat.problem);
  return fiat.amount;
};

/** Multicall3 where BSC has it, the demo feeds, two stablecoins priced by the DUSD/USD feed, hostile feeds; the chain behind a counting proxy. */
beforeAll(async () => {
  await chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  proxy = await startRpcProxy(chain().url);
  useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  forgetMulticall("bsc");
  await ensureDemoFeeds(chain().url);
  usd18 = await deployTestToken(chain().url, { symbol: "FUSD", decimals: 18 });
  usd6 = await deployTestToken(chain().url, { symbol: "FSIX", decimals: 6 });
  for (const token of [usd18, usd6]) {
    await tokensCommand(db(), ["allow", "bsc", token]);
    await tokensCommand(db(), ["feed", "bsc", token, DEMO_DUSD_USD_FEED, "--heartbeat", "3600", "--pegged"]);
  }
  hostile.reverts = await deploy(hostileFeed.abi, hostileFeed.bytecode, [1]);
  hostile.short = await deploy(hostileFeed.abi, hostileFeed.bytecode, [2]);
  hostile.burnsGas = await deploy(hostileFeed.abi, hostileFeed.bytecode, [3]);
  hostile.decimals37 = await deploy(priceFeedAbi, priceFeedBytecode, [37, "X / USD", 1n]);
  hostile.negative = await deploy(priceFeedAbi, priceFeedBytecode, [8, "X / USD", -1n]);
  hostile.future = await deploy(priceFeedAbi, priceFeedBytecode, [8, "X / USD", 1n]);
  await deployer().writeContract({
    chain: await chainAt(chain().url),
    address: hostile.future,
    abi: priceFeedAbi,
    functionName: "setRoundData",
    args: [1n, BigInt((await blockTime()) + 3600)],
  });
});
afterAll(async () => {
  await proxy?.close();
});

describe("the demo feeds", () => {
  it("sit at the same addresses on every fresh chain, as migration 0031 names them, and deploy once", async () => {
    expect(DEMO_FEEDS.map((f) => f.address)).toEqual([
      "0x5E861c255a7DbE937d9ca1b23Cc3ccDa594458ad",
      "0x334ff0f62e58B95Da0A682aF658fE61070D72791",
      "0x7B41F7Ec7EaF6f7953fCa3a550634Ed266A9286d",
    ]);
    const nonce = await chain().client.getTransactionCount({ address: demoFeedDeployer.address });
    expect(await ensureDemoFeeds(chain().url)).toEqual(DEMO_FEEDS.map((f) => f.address));
    expect(await chain().client.getTransactionCount({ address: demoFeedDeployer.address })).toBe(nonce);
    const [eur] = await db().select().from(currencyFeeds).where(eq(currencyFeeds.network, "local"));
    expect(eur).toMatchObject({ currency: "EUR", usdFeed: DEMO_EUR_USD_FEED, heartbeatSeconds: 3600 });
  });

  it("speak AggregatorV3Interface; only their owner sets a round", async () => {
    const read = (functionName: string, args: unknown[] = []) =>
      chain().client.readContract({ address: DEMO_BNB_USD_FEED, abi: priceFeedAbi, functionName, args });
    expect(await read("decimals")).toBe(8);
    expect(await read("description")).toBe("BNB / USD");
    expect(await read("version")).toBe(4n);
    const [roundId, answer, , updatedAt, answeredInRound] = (await read("latestRoundData")) as bigint[];
    expect([roundId, answer, answeredInRound]).toEqual([1n, 600_00000000n, 1n]);
    expect(Number(updatedAt)).toBeGreaterThanOrEqual((await blockTime()) - 1); // follows the chain's clock
    expect(((await read("getRoundData", [1n])) as bigint[])[1]).toBe(600_00000000n);
    await expect(read("getRoundData", [99n])).rejects.toThrow(/No data present/);
    await expect(
      chain().client.simulateContract({
        account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[0]),
        address: DEMO_BNB_USD_FEED,
        abi: priceFeedAbi,
        functionName: "setRoundData",
        args: [1n, 0n],
      }),
    ).rejects.toThrow(/not owner/);
  });
});

describe("readPriceFeeds", () => {
  it("reads every feed in one eth_call; hostile feeds read as failures beside honest answers", async () => {
    const { burnsGas, ...others } = hostile;
    const feeds = [...DEMO_FEEDS.map((f) => f.address), ...Object.values(others)];
    await readPriceFeeds("bsc", feeds); // the first read also asks whether the chain has Multicall3
    proxy.requests = 0;
    const readings = await readPriceFeeds("bsc", [...feeds, DEMO_BNB_USD_FEED]);
    expect(proxy.requests).toBe(1);
    expect(readings.size).toBe(feeds.length);
    expect(readings.get(DEMO_BNB_USD_FEED)).toMatchObject({ ok: true, answer: 600_00000000n, decimals: 8, roundId: 1n });
    expect(readings.get(DEMO_DUSD_USD_FEED)).toMatchObject({ ok: true, answer: 1_00000000n });
    expect(readings.get(DEMO_EUR_USD_FEED)).toMatchObject({ ok: true, answer: 1_08000000n });
    expect(readings.get(hostile.reverts)).toMatchObject({ ok: false, problem: "unreadable" });
    expect(readings.get(hostile.short)).toMatchObject({ ok: false, problem: "unreadable" });
    expect(readings.get(hostile.decimals37)).toMatchObject({ ok: false, problem: "decimals-out-of-range" });
    expect(readings.get(hostile.negative)).toMatchObject({ ok: false, problem: "answer-not-positive" });
    expect(readings.get(hostile.future)).toMatchObject({ ok: false, problem: "updated-in-future" });
    // An address with no contract at all.
    const nothing = (await readPriceFeeds("bsc", ["0x00000000000000000000000000000000000000f1"])).values().next().value;
    expect(nothing).toMatchObject({ ok: false, problem: "unreadable" });
  });

  it("a feed that burns all its gas sinks the whole batch; then each feed is read alone, and only it fails", async () => {
    const feeds = [...DEMO_FEEDS.map((f) => f.address), hostile.burnsGas, hostile.reverts];
    const readings = await readPriceFeeds("bsc", feeds);
    expect(readings.get(hostile.burnsGas)).toMatchObject({ ok: false, problem: "unreadable" });
    expect(readings.get(hostile.reverts)).toMatchObject({ ok: false, problem: "unreadable" });
    for (const { address, answer } of DEMO_FEEDS) expect(readings.get(address)).toMatchObject({ ok: true, answer });
  });
});

describe("quotes from the chain", () => {
  const catalogueTokens = async () => {
    const rows = await db().select().from(tokenCatalogue).where(eq(tokenCatalogue.network, "bsc"));
    const byAddress = new Map(rows.map((r) => [r.contractAddress, pricedCatalogueToken(r)]));
    return [byAddress.get(usd18)!, byAddress.get(usd6)!];
  };
  const bnb: PricedToken = { tokenAddress: null, decimals: 18, usdFeed: DEMO_BNB_USD_FEED, feedHeartbeatSeconds: 60, usdPegged: false };
  const quote = async (fiat = usd("25.00"), now?: Date) =>
    quoteTokensOnChain(db(), { network: "bsc", fiat, tokens: [...(await catalogueTokens()), bnb], now });

  it("prices stablecoins 1:1 and BNB at its feed, exact amounts for 18 and 6 decimals", async () => {
    const [a, b, c] = await quote();
    expect(a).toMatchObject({ ok: true, tokenAddress: usd18, amount: 25n * 10n ** 18n, rate: "1.00000000", offPeg: false });
    expect(a?.ok && a.source).toBe(`chainlink:${DEMO_DUSD_USD_FEED}`);
    expect(b).toMatchObject({ ok: true, tokenAddress: usd6, amount: 25_000_000n, rate: "1.00000000" });
    expect(c).toMatchObject({ ok: true, tokenAddress: null, amount: 41_666_666_666_666_667n, rate: "600.00000000" });
  });

  it("prices in EUR through the network's EUR/USD feed, and not at all without a readable one", async () => {
    const eur = parseFiatAmount("EUR", "25.00");
    if (!eur.ok) throw new Error(eur.problem);
    // The seeded bsc row names Chainlink's mainnet proxy, which this chain does not have.
    expect((await quoteTokensOnChain(db(), { network: "bsc", fiat: eur.amount, tokens: [bnb] }))[0]).toMatchObject({
      ok: false,
      unavailable: "currency-feed-unreadable",
    });
    await db().update(currencyFeeds).set({ usdFeed: DEMO_EUR_USD_FEED }).where(eq(currencyFeeds.network, "bsc"));
    const [a, , c] = await quoteTokensOnChain(db(), { network: "bsc", fiat: eur.amount, tokens: [...(await catalogueTokens()), bnb] });
    expect(a).toMatchObject({ ok: true, rate: "0.92592592", amount: 27_000_000_172_800_001_106n });
    expect(a?.ok && a.source).toBe(`chainlink:${DEMO_DUSD_USD_FEED}/${DEMO_EUR_USD_FEED}`);
    expect(c).toMatchObject({ ok: true, rate: "555.55555555" });
  });

  it("tells the payer at 0.99, does not offer at 0.96, and never prices a stale round", async () => {
    await setDemoFeedRound(chain().url, DEMO_DUSD_USD_FEED, { answer: 99_000000n });
    const [a, b, c] = await quote();
    expect(a).toMatchObject({ ok: true, rate: "0.99000000", amount: 25_252_525_252_525_252_526n, offPeg: true });
    expect(b).toMatchObject({ ok: true, amount: 25_252_526n, offPeg: true });
    expect(c).toMatchObject({ ok: true, rate: "600.00000000" }); // BNB has its own feed

    await setDemoFeedRound(chain().url, DEMO_DUSD_USD_FEED, { answer: 96_000000n });
    expect((await quote()).map((r) => (r.ok ? "offered" : r.unavailable))).toEqual(["depegged", "depegged", "offered"]);

    // A round pinned exactly one heartbeat ago is fresh; a second older, stale.
    const at = await blockTime();
    await setDemoFeedRound(chain().url, DEMO_DUSD_USD_FEED, { answer: 1_00000000n, updatedAt: BigInt(at - 3600) });
    const now = new Date(at * 1000);
    expect((await quote(usd("25.00"), now))[0]).toMatchObject({
      ok: true,
      rate: "1.00000000",
      feedUpdatedAt: new Date((at - 3600) * 1000),
    });
    await setDemoFeedRound(chain().url, DEMO_DUSD_USD_FEED, { answer: 1_00000000n, updatedAt: BigInt(at - 3601) });
    expect((await quote(usd("25.00"), now)).map((r) => (r.ok ? "offered" : r.unavailable))).toEqual([
      "feed-stale",
      "feed-stale",
      "offered",
    ]);

    // Back to following the clock: offered again.
    await setDemoFeedRound(chain().url, DEMO_DUSD_USD_FEED, { answer: 1_00000000n });
    expect((await quote())[0]).toMatchObject({ ok: true, rate: "1.00000000" });
  });

  it("makes a token unavailable, not the request, when its feed is hostile", async () => {
    await db().update(tokenCatalogue).set({ usdFeed: hostile.burnsGas }).where(eq(tokenCatalogue.contractAddress, usd6));
    const [a, b, c] = await quote();
    expect([a?.ok, b?.ok ? "offered" : b?.unavailable, c?.ok]).toEqual([true, "feed-unreadable", true]);
    await db().update(tokenCatalogue).set({ usdFeed: DEMO_DUSD_USD_FEED }).where(eq(tokenCatalogue.contractAddress, usd6));
  });
});
