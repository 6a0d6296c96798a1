/**
 * The catalogue's price feeds (docs/design.md §23): what migration 0031 seeds, and the operator's
 * `tokens feed` command, which checks a feed on the chain before keeping it.
 */

import { and, eq } from "drizzle-orm";
import { type Address, createWalletClient, getAddress, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { currencyFeeds, tokenCatalogue } from "@/lib/db/schema";
import { DEMO_DUSD_USD_FEED, DEMO_EUR_USD_FEED, ensureDemoFeeds, priceFeedAbi, priceFeedBytecode } from "@/lib/engine/dev/demo-feeds";
import { ANVIL_DEFAULT_KEYS, DEMO_TOKEN_ADDRESS } from "@/lib/engine/dev/demo-token";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { chainAt, deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import hostileFeed from "../helpers/contracts/hostile-feed.json";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const USDT = "0x55d398326f99059fF775485246999027B3197955";
const USDC = "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d";
let token: Address;
let revertingFeed: Address;
let negativeFeed: Address;

async function deploy(abi: unknown, bytecode: string, args: unknown[]): Promise<Address> {
  const wallet = createWalletClient({ account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[0]), transport: http(chain().url) });
  const hash = await wallet.deployContract({
    chain: await chainAt(chain().url),
    abi: abi as never,
    bytecode: bytecode as Hex,
    args: args as never,
  });
  return getAddress((await chain().client.waitForTransactionReceipt({ hash })).contractAddress!);
}
const feedCommand = (...args: string[]) => tokensCommand(db(), ["feed", ...args]);
const entry = async (address: string) =>
  (
    await db()
      .select()
      .from(tokenCatalogue)
      .where(and(eq(tokenCatalogue.network, "bsc"), eq(tokenCatalogue.contractAddress, address)))
  )[0];

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  await ensureDemoFeeds(chain().url);
  token = await deployTestToken(chain().url, { symbol: "FEE", decimals: 6 });
  await tokensCommand(db(), ["allow", "bsc", token]);
  revertingFeed = await deploy(hostileFeed.abi, hostileFeed.bytecode, [1]);
  negativeFeed = await deploy(priceFeedAbi, priceFeedBytecode, [8, "X / USD", -5n]);
});

describe("migration 0031", () => {
  it("gives the seeded stablecoins their Chainlink feeds, the demo token its local feed, and EUR its feeds", async () => {
    expect(await entry(USDT)).toMatchObject({
      usdFeed: "0xB97Ad0E74fa7d920791E90258A6E2085088b4320",
      feedHeartbeatSeconds: 86_400,
      usdPegged: true,
    });
    expect(await entry(USDC)).toMatchObject({
      usdFeed: "0x51597f405303C4377E36123cBc172b13269EA163",
      feedHeartbeatSeconds: 86_400,
      usdPegged: true,
    });
    const [dusd] = await db().select().from(tokenCatalogue).where(eq(tokenCatalogue.contractAddress, DEMO_TOKEN_ADDRESS));
    expect(dusd).toMatchObject({ network: "local", usdFeed: DEMO_DUSD_USD_FEED, feedHeartbeatSeconds: 3600, usdPegged: true });
    expect(await db().select().from(currencyFeeds).orderBy(currencyFeeds.network)).toEqual([
      expect.objectContaining({
        network: "bsc",
        currency: "EUR",
        usdFeed: "0x0bf79F617988C472DcA68ff41eFe1338955b9A80",
        heartbeatSeconds: 86_400,
      }),
      expect.objectContaining({ network: "local", currency: "EUR", usdFeed: DEMO_EUR_USD_FEED, heartbeatSeconds: 3600 }),
    ]);
    // A token added later has no feed and is no stablecoin until the operator says so.
    expect(await entry(token)).toMatchObject({ usdFeed: null, feedHeartbeatSeconds: null, usdPegged: false });
  });
});

describe("tokens feed", () => {
  it("sets a token's feed, heartbeat and peg after reading the feed on the chain; `none` removes it", async () => {
    const lowercase = DEMO_DUSD_USD_FEED.toLowerCase();
    expect(await feedCommand("bsc", token, lowercase, "--heartbeat", "3600", "--pegged")).toEqual([
      expect.stringMatching(
        new RegExp(`^feed set: bsc +${token} +FEE .* enabled {2}feed ${DEMO_DUSD_USD_FEED} heartbeat 3600 s, USD stablecoin$`),
      ),
    ]);
    expect(await entry(token)).toMatchObject({ usdFeed: DEMO_DUSD_USD_FEED, feedHeartbeatSeconds: 3600, usdPegged: true });
    expect((await tokensCommand(db(), ["list", "bsc"])).join("\n")).toContain(`FEE`);
    expect((await tokensCommand(db(), ["list", "bsc"])).find((l) => l.includes(token))).toMatch(/heartbeat 3600 s, USD stablecoin$/);

    // Again without --pegged: the flag is what the operator says now.
    expect(await feedCommand("bsc", token, DEMO_DUSD_USD_FEED, "--heartbeat", "60")).toEqual([expect.stringMatching(/heartbeat 60 s$/)]);
    expect(await entry(token)).toMatchObject({ feedHeartbeatSeconds: 60, usdPegged: false });

    expect(await feedCommand("bsc", token, "none")).toEqual([expect.stringMatching(/^feed removed: .* no price feed$/)]);
    expect(await entry(token)).toMatchObject({ usdFeed: null, feedHeartbeatSeconds: null, usdPegged: false });
  });

  it("refuses bad operator input and feeds that do not answer like Chainlink, changing nothing", async () => {
    await feedCommand("bsc", token, DEMO_DUSD_USD_FEED, "--heartbeat", "3600", "--pegged");
    const before = await db().select().from(tokenCatalogue);
    const refusals: [string[], RegExp][] = [
      [["bsc", token], /usage/],
      [["bsc", token, "0x1234", "--heartbeat", "60"], /not a 0x-prefixed/],
      [["bsc", token, "0x334FF0f62e58B95Da0A682aF658fE61070D72791", "--heartbeat", "60"], /valid checksum/],
      [["bsc", token, DEMO_DUSD_USD_FEED], /--heartbeat <seconds> is required/],
      [["bsc", token, DEMO_DUSD_USD_FEED, "--heartbeat"], /needs a value/],
      [["bsc", token, DEMO_DUSD_USD_FEED, "--heartbeat", "0"], /whole number of seconds/],
      [["bsc", token, DEMO_DUSD_USD_FEED, "--heartbeat", "1.5"], /whole number of seconds/],
      [["bsc", token, DEMO_DUSD_USD_FEED, "--heartbeat", "-5"], /whole number of seconds/],
      [["bsc", token, DEMO_DUSD_USD_FEED, "--heartbeat", "604801"], /from 1 to 604800/],
      [["bsc", token, DEMO_DUSD_USD_FEED, "--heartbeat", "60", "--peg"], /unknown flag --peg/],
      [["bsc", token, "none", "--pegged"], /takes no flags/],
      [
        ["bsc", token, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "--heartbeat", "60"],
        /does not answer like a Chainlink price feed on bsc \(unreadable\)/,
      ],
      [["bsc", token, revertingFeed, "--heartbeat", "60"], /does not answer like a Chainlink price feed on bsc \(unreadable\)/],
      [["bsc", token, negativeFeed, "--heartbeat", "60"], /\(answer-not-positive\)/],
      [["bsc", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", DEMO_DUSD_USD_FEED, "--heartbeat", "60"], /not in the catalogue of bsc/],
      [["ethereum", token, DEMO_DUSD_USD_FEED, "--heartbeat", "60"], /not configured/],
    ];
    for (const [args, message] of refusals) await expect(feedCommand(...args), args.join(" ")).rejects.toThrow(message);
    expect(await db().select().from(tokenCatalogue)).toEqual(before);
  });
});
