/**
 * The operator's currency feeds (docs/design.md §23): `npm run admin -- currencies …` sets, lists and
 * removes a currency's USD feed, checking it on the chain first; bad input changes nothing, and a
 * session can be priced in the currency exactly while it has a feed.
 */

import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { currencyFeeds } from "@/lib/db/schema";
import { DEMO_BNB_USD_FEED, DEMO_EUR_USD_FEED, ensureDemoFeeds } from "@/lib/engine/dev/demo-feeds";
import { DEMO_TOKEN_ADDRESS } from "@/lib/engine/dev/demo-token";
import { currenciesCommand } from "@/lib/ops/admin/currencies";
import { useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const run = (...args: string[]) => currenciesCommand(db(), args);
const rows = () => db().select().from(currencyFeeds).orderBy(currencyFeeds.network, currencyFeeds.currency);

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
  await ensureDemoFeeds(chain().url);
});

describe("npm run admin -- currencies", () => {
  it("lists the seeded EUR feeds, sets GBP after checking it on the chain, moves EUR, and removes GBP", async () => {
    expect(await run("list", "bsc")).toEqual(["bsc EUR  feed 0x0bf79F617988C472DcA68ff41eFe1338955b9A80 heartbeat 86400 s"]);
    // Any Chainlink-shaped feed passes the check (the demo's BNB/USD stands in for GBP/USD here).
    expect(await run("feed", "bsc", "GBP", DEMO_BNB_USD_FEED, "--heartbeat", "3600")).toEqual([
      `feed set: bsc GBP  feed ${DEMO_BNB_USD_FEED} heartbeat 3600 s`,
    ]);
    expect(await run("feed", "bsc", "EUR", DEMO_EUR_USD_FEED, "--heartbeat", "7200")).toEqual([
      `feed set: bsc EUR  feed ${DEMO_EUR_USD_FEED} heartbeat 7200 s`,
    ]);
    expect((await rows()).filter((r) => r.network === "bsc").map((r) => [r.currency, r.usdFeed, r.heartbeatSeconds])).toEqual([
      ["EUR", DEMO_EUR_USD_FEED, 7200],
      ["GBP", DEMO_BNB_USD_FEED, 3600],
    ]);
    expect(await run("feed", "bsc", "GBP", "none")).toEqual(["feed removed: bsc GBP"]);
    expect((await rows()).some((r) => r.currency === "GBP")).toBe(false);
  });

  it("refuses bad input with a clear message and changes nothing", async () => {
    const before = await rows();
    const refusals: [string[], RegExp][] = [
      [["feed", "bsc", "USD", DEMO_EUR_USD_FEED, "--heartbeat", "60"], /USD needs no feed/],
      [["feed", "bsc", "eur", DEMO_EUR_USD_FEED, "--heartbeat", "60"], /currency must be one of EUR/],
      [["feed", "bsc", "XAU", DEMO_EUR_USD_FEED, "--heartbeat", "60"], /currency must be one of/],
      [["feed", "mars", "EUR", DEMO_EUR_USD_FEED, "--heartbeat", "60"], /network "mars" is not configured/],
      [["feed", "bsc", "EUR", "0x1234", "--heartbeat", "60"], /not a 0x-prefixed 20-byte address/],
      [["feed", "bsc", "EUR", DEMO_EUR_USD_FEED], /--heartbeat <seconds> is required/],
      [["feed", "bsc", "EUR", DEMO_EUR_USD_FEED, "--heartbeat", "0"], /whole number of seconds/],
      [["feed", "bsc", "EUR", DEMO_EUR_USD_FEED, "--heartbeat", "9999999"], /from 1 to 604800/],
      [["feed", "bsc", "EUR", DEMO_EUR_USD_FEED, "--heartbeat", "60", "--pegged"], /unknown flag --pegged/],
      // A token is not a feed: it does not answer latestRoundData().
      [["feed", "bsc", "EUR", DEMO_TOKEN_ADDRESS, "--heartbeat", "60"], /does not answer like a Chainlink price feed/],
      [["feed", "bsc", "CHF", "none"], /CHF has no feed on bsc/],
      [["feed", "bsc", "EUR", "none", "--heartbeat", "60"], /takes no flags/],
      [["remove"], /usage/],
    ];
    for (const [args, message] of refusals) await expect(run(...args), args.join(" ")).rejects.toThrow(message);
    expect(await rows()).toEqual(before);
  });

  it("says when there is no feed at all", async () => {
    await db().delete(currencyFeeds).where(eq(currencyFeeds.network, "bsc"));
    expect(await run("list", "bsc")).toEqual(["no currency feeds: sessions can be priced in USD only"]);
  });
});
