import { and, asc, eq } from "drizzle-orm";
import type { Address } from "viem";
import { networkConfig } from "../chain/networks";
import type { Db } from "../db";
import { tokenCatalogue, type CatalogueToken } from "../db/schema";
import { AppError } from "../errors";
import { amountProblemMessage, formatAmount, parseAmount } from "../payments/amount";
import { forgetAcceptedTokens } from "./accepted-tokens";
import { readTokenMetadata } from "./read-token-metadata";

/**
 * The operator's list of accepted tokens per network (DESIGN.md §12). Allowing reads symbol and
 * decimals from the chain; allowing again re-enables the token and updates its minimum.
 */
export async function listCatalogue(db: Db, network?: string): Promise<CatalogueToken[]> {
  return db
    .select()
    .from(tokenCatalogue)
    .where(network ? eq(tokenCatalogue.network, network) : undefined)
    .orderBy(asc(tokenCatalogue.network), asc(tokenCatalogue.symbol));
}

export async function findCatalogueToken(db: Db, network: string, contract: string): Promise<CatalogueToken | undefined> {
  const [row] = await db
    .select()
    .from(tokenCatalogue)
    .where(and(eq(tokenCatalogue.network, network), eq(tokenCatalogue.contractAddress, contract)));
  return row;
}

export async function allowCatalogueToken(
  db: Db,
  network: string,
  contract: Address,
  options: { minForward?: string; addedBy?: "operator" | "merchant" } = {},
): Promise<CatalogueToken> {
  if (!networkConfig(network)) throw new AppError("VALIDATION_ERROR", `network "${network}" is not configured on this server`);
  const metadata = await readTokenMetadata(network, contract);
  let minForwardAmount: bigint | undefined;
  if (options.minForward !== undefined) {
    const parsed = options.minForward === "0" ? 0n : parseAmount(options.minForward, metadata.decimals);
    if (typeof parsed === "string") throw new AppError("VALIDATION_ERROR", amountProblemMessage("--min-forward", parsed, metadata.decimals));
    minForwardAmount = parsed;
  }
  const now = new Date();
  const [row] = await db
    .insert(tokenCatalogue)
    .values({ network, contractAddress: contract, ...metadata, minForwardAmount: minForwardAmount ?? 0n, addedBy: options.addedBy ?? "operator" })
    .onConflictDoUpdate({
      target: [tokenCatalogue.network, tokenCatalogue.contractAddress],
      set: { ...metadata, enabled: true, updatedAt: now, ...(minForwardAmount !== undefined ? { minForwardAmount } : {}) },
    })
    .returning();
  forgetAcceptedTokens();
  return row!;
}

export async function disallowCatalogueToken(db: Db, network: string, contract: Address): Promise<CatalogueToken> {
  const [row] = await db
    .update(tokenCatalogue)
    .set({ enabled: false, updatedAt: new Date() })
    .where(and(eq(tokenCatalogue.network, network), eq(tokenCatalogue.contractAddress, contract)))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", `${contract} is not in the catalogue of ${network}`);
  forgetAcceptedTokens();
  return row;
}

export function describeCatalogueToken(token: CatalogueToken): string {
  const min = formatAmount(token.minForwardAmount, token.decimals);
  return `${token.network.padEnd(11)} ${token.contractAddress}  ${token.symbol.padEnd(8)} ${String(token.decimals).padStart(2)} decimals  min forward ${min}  ${token.enabled ? "enabled" : "disabled"}`;
}
