import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { describeCurrencyFeed, listCurrencyFeeds, setCurrencyFeed } from "../../domain/pricing/currency-feeds";
import { parseAddress } from "../../engine/chain/address";
import { flag } from "./tokens";

export const CURRENCIES_USAGE = `  currencies list [network]                                the currencies' USD feeds (USD needs none)
  currencies feed <network> <currency> <feed> --heartbeat <seconds>
                                                           price sessions in <currency> (EUR, GBP, …) through its Chainlink
                                                           <currency>/USD feed (checked on the chain); stale after the heartbeat
  currencies feed <network> <currency> none                stop pricing in <currency> on the network`;

/** npm run admin -- currencies …: returns the lines to print. */
export async function currenciesCommand(db: Db, args: string[]): Promise<string[]> {
  const [action, network, currency, feed, ...flags] = args;
  switch (action) {
    case "list": {
      const rows = await listCurrencyFeeds(db, network);
      return rows.length === 0 ? ["no currency feeds: sessions can be priced in USD only"] : rows.map(describeCurrencyFeed);
    }
    case "feed": {
      if (!network || !currency || !feed) throw new AppError("VALIDATION_ERROR", `usage:\n${CURRENCIES_USAGE}`);
      if (feed === "none") {
        if (flags.length > 0) throw new AppError("VALIDATION_ERROR", "currencies feed … none takes no flags");
        await setCurrencyFeed(db, network, currency, { feed: null });
        return [`feed removed: ${network} ${currency}`];
      }
      const feedAddress = parseAddress(feed);
      if (!feedAddress) throw new AppError("VALIDATION_ERROR", `${feed} is not a 0x-prefixed 20-byte address with a valid checksum`);
      const unknown = flags.filter((f, i) => f.startsWith("--") && f !== "--heartbeat" && flags[i - 1] !== "--heartbeat");
      if (unknown.length > 0) throw new AppError("VALIDATION_ERROR", `unknown flag ${unknown[0]}`);
      const heartbeat = flag(flags, "--heartbeat");
      if (heartbeat === undefined)
        throw new AppError("VALIDATION_ERROR", "--heartbeat <seconds> is required: the feed's heartbeat, after which its price is stale");
      if (!/^[1-9][0-9]{0,9}$/.test(heartbeat)) throw new AppError("VALIDATION_ERROR", "--heartbeat must be a whole number of seconds");
      const row = await setCurrencyFeed(db, network, currency, { feed: feedAddress, heartbeatSeconds: Number(heartbeat) });
      // biome-ignore lint/style/noNonNullAssertion: setting a feed returns its row
      return [`feed set: ${describeCurrencyFeed(row!)}`];
    }
    default:
      throw new AppError("VALIDATION_ERROR", `usage:\n${CURRENCIES_USAGE}`);
  }
}
