import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { allowCatalogueToken, describeCatalogueToken, disallowCatalogueToken, listCatalogue } from "../../domain/tokens/catalogue";
import { describeCatalogueFeed, setCatalogueFeed } from "../../domain/tokens/catalogue-feeds";
import { parseAddress } from "../../engine/chain/address";
import { networkConfig } from "../../engine/chain/networks";

export const TOKENS_USAGE = `  tokens list [network]                                    the token catalogue: what merchants may register and the scanner reads
  tokens allow <network> <contract> [--min-forward <amt>] [--min-withdrawal <amt>] [--min-payment <amt>]
                                                           accept a token (symbol and decimals read from the chain); again: update its minimums
                                                           (min withdrawal default: the min forward, else 0.01 of the token;
                                                            min payment — the smallest session — default: the min forward)
  tokens disallow <network> <contract>                     stop accepting a token (registered copies stop taking payments)
  tokens feed <network> <contract> <feed> --heartbeat <seconds> [--pegged]
                                                           price the token in fiat from a Chainlink USD feed (checked on the chain);
                                                           stale after the heartbeat; --pegged: a USD stablecoin (1:1 within 0.5 %,
                                                           the feed's rate up to 3 %, not offered beyond)
  tokens feed <network> <contract> none                    no fiat price for the token`;

/** npm run admin -- tokens …: returns the lines to print. */
export async function tokensCommand(db: Db, args: string[]): Promise<string[]> {
  const [action, network, contract, ...rest] = args;
  switch (action) {
    case "list": {
      const rows = await listCatalogue(db, network);
      return rows.length === 0
        ? ["the catalogue is empty"]
        : rows.map((row) => `${describeCatalogueToken(row)}  ${describeCatalogueFeed(row)}`);
    }
    case "allow": {
      const checked = target(network, contract);
      const token = await allowCatalogueToken(db, checked.network, checked.address, {
        minForward: flag(rest, "--min-forward"),
        minWithdrawal: flag(rest, "--min-withdrawal"),
        minPayment: flag(rest, "--min-payment"),
      });
      return [`allowed: ${describeCatalogueToken(token)}`];
    }
    case "disallow": {
      const checked = target(network, contract);
      const token = await disallowCatalogueToken(db, checked.network, checked.address);
      return [`disallowed: ${describeCatalogueToken(token)}`];
    }
    case "feed": {
      const checked = target(network, contract);
      const [feed, ...flags] = rest;
      if (!feed) throw new AppError("VALIDATION_ERROR", `usage:\n${TOKENS_USAGE}`);
      if (feed === "none") {
        if (flags.length > 0) throw new AppError("VALIDATION_ERROR", "tokens feed … none takes no flags");
        const token = await setCatalogueFeed(db, checked.network, checked.address, { feed: null });
        return [`feed removed: ${describeCatalogueToken(token)}  ${describeCatalogueFeed(token)}`];
      }
      const feedAddress = parseAddress(feed);
      if (!feedAddress) throw new AppError("VALIDATION_ERROR", `${feed} is not a 0x-prefixed 20-byte address with a valid checksum`);
      const unknown = flags.filter(
        (f, i) => f.startsWith("--") && f !== "--heartbeat" && f !== "--pegged" && flags[i - 1] !== "--heartbeat",
      );
      if (unknown.length > 0) throw new AppError("VALIDATION_ERROR", `unknown flag ${unknown[0]}`);
      const heartbeat = flag(flags, "--heartbeat");
      if (heartbeat === undefined)
        throw new AppError("VALIDATION_ERROR", "--heartbeat <seconds> is required: the feed's heartbeat, after which its price is stale");
      if (!/^[1-9][0-9]{0,9}$/.test(heartbeat)) throw new AppError("VALIDATION_ERROR", "--heartbeat must be a whole number of seconds");
      const token = await setCatalogueFeed(db, checked.network, checked.address, {
        feed: feedAddress,
        heartbeatSeconds: Number(heartbeat),
        pegged: flags.includes("--pegged"),
      });
      return [`feed set: ${describeCatalogueToken(token)}  ${describeCatalogueFeed(token)}`];
    }
    default:
      throw new AppError("VALIDATION_ERROR", `usage:\n${TOKENS_USAGE}`);
  }
}

function target(network: string | undefined, contract: string | undefined) {
  if (!network || !contract) throw new AppError("VALIDATION_ERROR", `usage:\n${TOKENS_USAGE}`);
  if (!networkConfig(network)) throw new AppError("VALIDATION_ERROR", `network "${network}" is not configured (set its RPC URL)`);
  const address = parseAddress(contract);
  if (!address) throw new AppError("VALIDATION_ERROR", `${contract} is not a 0x-prefixed 20-byte address with a valid checksum`);
  return { network, address };
}

export function flag(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith("--")) throw new AppError("VALIDATION_ERROR", `${name} needs a value`);
  return value;
}
