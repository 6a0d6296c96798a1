import { and, eq } from "drizzle-orm";
import { erc20Abi, type Address } from "viem";
import { networkConfig, publicClientFor } from "../chain/networks";
import type { Db } from "../db";
import { tokens, type Token } from "../db/schema";
import { AppError } from "../errors";
import { isUniqueViolation } from "../db/errors";

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
 * Registers a BEP-20 contract for a user after asking the chain for its decimals, symbol and name.
 * Registering the same contract again returns the existing token (`created: false`).
 */
export async function registerToken(
  db: Db,
  userId: number,
  input: { contractAddress: Address; network: string },
): Promise<{ token: Token; created: boolean }> {
  const { contractAddress, network } = input;
  if (!networkConfig(network)) {
    throw new AppError("VALIDATION_ERROR", `network "${network}" is not configured on this server`);
  }
  const existing = await findToken(db, userId, network, contractAddress);
  if (existing) return { token: existing, created: false };

  const metadata = await readTokenMetadata(network, contractAddress);
  try {
    const [token] = await db
      .insert(tokens)
      .values({ userId, network, contractAddress, ...metadata })
      .returning();
    return { token: token!, created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await findToken(db, userId, network, contractAddress);
    return { token: raced!, created: false };
  }
}

async function findToken(db: Db, userId: number, network: string, contractAddress: string) {
  const [token] = await db
    .select()
    .from(tokens)
    .where(and(eq(tokens.userId, userId), eq(tokens.network, network), eq(tokens.contractAddress, contractAddress)));
  return token;
}

async function readTokenMetadata(network: string, address: Address) {
  const client = publicClientFor(network);
  let code: string | undefined;
  try {
    code = await client.getCode({ address });
  } catch {
    throw new AppError("BLOCKCHAIN_ERROR", `the ${network} RPC did not answer; try again later`);
  }
  if (!code || code === "0x") {
    throw new AppError("VALIDATION_ERROR", `no contract is deployed at ${address} on ${network}`);
  }
  const read = async <T>(functionName: "decimals" | "symbol" | "name"): Promise<T | undefined> => {
    try {
      return (await client.readContract({ address, abi: erc20Abi, functionName })) as T;
    } catch {
      return undefined;
    }
  };
  const [decimals, symbol, name] = await Promise.all([read<number>("decimals"), read<string>("symbol"), read<string>("name")]);
  if (decimals === undefined || decimals > 36) {
    throw new AppError("VALIDATION_ERROR", `the contract at ${address} does not answer ERC-20 decimals()`);
  }
  if (symbol === undefined || symbol.trim() === "") {
    throw new AppError("VALIDATION_ERROR", `the contract at ${address} does not answer ERC-20 symbol()`);
  }
  return { decimals, symbol: symbol.slice(0, 32), name: (name ?? symbol).slice(0, 100) };
}
