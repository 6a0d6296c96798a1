import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { allowCatalogueToken, describeCatalogueToken, disallowCatalogueToken, listCatalogue } from "../../domain/tokens/catalogue";
import { parseAddress } from "../../engine/chain/address";
import { networkConfig } from "../../engine/chain/networks";

export const TOKENS_USAGE = `  tokens list [network]                                    the token catalogue: what merchants may register and the scanner reads
  tokens allow <network> <contract> [--min-forward <amt>] [--min-withdrawal <amt>] [--min-payment <amt>]
                                                           accept a token (symbol and decimals read from the chain); again: update its minimums
                                                           (min withdrawal default: the min forward, else 0.01 of the token;
                                                            min payment — the smallest session — default: the min forward)
  tokens disallow <network> <contract>                     stop accepting a token (registered copies stop taking payments)`;

/** npm run admin -- tokens …: returns the lines to print. */
export async function tokensCommand(db: Db, args: string[]): Promise<string[]> {
  const [action, network, contract, ...rest] = args;
  switch (action) {
    case "list": {
      const rows = await listCatalogue(db, network);
      return rows.length === 0 ? ["the catalogue is empty"] : rows.map(describeCatalogueToken);
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
