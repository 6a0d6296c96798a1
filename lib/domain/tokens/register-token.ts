import { and, eq } from "drizzle-orm";
import type { Address } from "viem";
import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { isUniqueViolation } from "../../db/errors";
import { requireRow } from "../../db/rows";
import { type Token, tokens } from "../../db/schema";
import { networkConfig } from "../../engine/chain/networks";
import { allowCatalogueToken, findCatalogueToken } from "./catalogue";
import { tokenRefusal } from "./reasons";

export interface TokenView {
  tokenId: number;
  symbol: string;
  name: string;
  decimals: number;
  contractAddress: string;
  network: string;
}

export function toTokenView(token: Token): TokenView {
  return {
    tokenId: token.id,
    symbol: token.symbol,
    name: token.name,
    decimals: token.decimals,
    contractAddress: token.contractAddress,
    network: token.network,
  };
}

/**
 * Registers a token for a user from the operator's catalogue (symbol and decimals as the catalogue
 * holds them). With OPEN_TOKEN_REGISTRATION=true any ERC-20 that answers decimals() and symbol() is
 * accepted and added to the catalogue; a token the operator disallowed stays refused either way.
 * Registering the same contract again returns the existing token (`created: false`).
 */
export async function registerToken(
  db: Db,
  userId: number,
  input: { contractAddress: Address; network: string },
): Promise<{ token: Token; created: boolean }> {
  const { contractAddress, network } = input;
  if (!networkConfig(network)) {
    throw tokenRefusal("VALIDATION_ERROR", "network-not-configured", `network "${network}" is not configured on this server`);
  }
  const existing = await findToken(db, userId, network, contractAddress);
  if (existing) return { token: existing, created: false };

  const accepted = await acceptedToken(db, network, contractAddress);
  try {
    const inserted = await db
      .insert(tokens)
      .values({ userId, network, contractAddress, symbol: accepted.symbol, name: accepted.name, decimals: accepted.decimals })
      .returning();
    return { token: requireRow(inserted, "insert into tokens"), created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await findToken(db, userId, network, contractAddress);
    // biome-ignore lint/style/noNonNullAssertion: the unique violation means the same token was registered, and tokens are never deleted
    return { token: raced!, created: false };
  }
}

async function acceptedToken(db: Db, network: string, contractAddress: Address) {
  const listed = await findCatalogueToken(db, network, contractAddress);
  if (listed?.enabled) return listed;
  if (!listed && getConfig().openTokenRegistration) return allowCatalogueToken(db, network, contractAddress, { addedBy: "merchant" });
  throw tokenRefusal(
    "VALIDATION_ERROR",
    "token-not-in-catalogue",
    `this gateway does not accept the token ${contractAddress} on ${network}: it is not in the operator's token catalogue. ` +
      `The operator can allow it with: npm run admin -- tokens allow ${network} ${contractAddress}`,
  );
}

async function findToken(db: Db, userId: number, network: string, contractAddress: string) {
  const [token] = await db
    .select()
    .from(tokens)
    .where(and(eq(tokens.userId, userId), eq(tokens.network, network), eq(tokens.contractAddress, contractAddress)));
  return token;
}
