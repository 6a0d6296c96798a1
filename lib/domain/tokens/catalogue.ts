/**
 * The operator's list of accepted tokens per network (docs/design.md §12). Allowing reads symbol and
 * decimals from the chain; allowing again re-enables the token and updates its minimum.
 */

import { and, asc, eq } from "drizzle-orm";
import type { Address } from "viem";
import { AppError } from "../../base/errors";
import { amountProblemMessage, formatAmount, parseAmount } from "../../base/money";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type CatalogueToken, tokenCatalogue } from "../../db/schema";
import { networkConfig } from "../../engine/chain/networks";
import { forgetAcceptedTokens } from "./accepted-tokens";
import { minimumPayment } from "./minimum-payment";
import { readTokenMetadata } from "./read-token-metadata";

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
  options: { minForward?: string; minWithdrawal?: string; minPayment?: string; addedBy?: "operator" | "merchant" } = {},
): Promise<CatalogueToken> {
  if (!networkConfig(network)) throw new AppError("VALIDATION_ERROR", `network "${network}" is not configured on this server`);
  const metadata = await readTokenMetadata(network, contract);
  const minForwardAmount = minimumOption("--min-forward", options.minForward, metadata.decimals);
  const minWithdrawalAmount = minimumOption("--min-withdrawal", options.minWithdrawal, metadata.decimals);
  const minPaymentAmount = minimumOption("--min-payment", options.minPayment, metadata.decimals);
  const now = new Date();
  const upserted = await db
    .insert(tokenCatalogue)
    .values({
      network,
      contractAddress: contract,
      ...metadata,
      minForwardAmount: minForwardAmount ?? 0n,
      minWithdrawalAmount: minWithdrawalAmount ?? null,
      minPaymentAmount: minPaymentAmount ?? null,
      addedBy: options.addedBy ?? "operator",
    })
    .onConflictDoUpdate({
      target: [tokenCatalogue.network, tokenCatalogue.contractAddress],
      set: {
        ...metadata,
        enabled: true,
        updatedAt: now,
        ...(minForwardAmount !== undefined ? { minForwardAmount } : {}),
        ...(minWithdrawalAmount !== undefined ? { minWithdrawalAmount } : {}),
        ...(minPaymentAmount !== undefined ? { minPaymentAmount } : {}),
      },
    })
    .returning();
  forgetAcceptedTokens();
  return requireRow(upserted, `catalogue entry ${contract} on ${network}`);
}

/** A decimal amount of the token from the command line, in base units; "0" is allowed. */
function minimumOption(name: string, value: string | undefined, decimals: number): bigint | undefined {
  if (value === undefined) return undefined;
  const parsed = value === "0" ? 0n : parseAmount(value, decimals);
  if (typeof parsed === "string") throw new AppError("VALIDATION_ERROR", amountProblemMessage(name, parsed, decimals));
  return parsed;
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

/**
 * The smallest withdrawal of a catalogue token (docs/design.md §18): every send costs the gas tank a
 * top-up, so dust is refused. The operator's `--min-withdrawal`, else the minimum forward, else
 * 0.01 of the token.
 */
export function minimumWithdrawal(entry: Pick<CatalogueToken, "minWithdrawalAmount" | "minForwardAmount" | "decimals">): bigint {
  if (entry.minWithdrawalAmount !== null) return entry.minWithdrawalAmount;
  if (entry.minForwardAmount > 0n) return entry.minForwardAmount;
  return 10n ** BigInt(Math.max(entry.decimals - 2, 0));
}

export function describeCatalogueToken(token: CatalogueToken): string {
  const min = formatAmount(token.minForwardAmount, token.decimals);
  const minWithdrawal = `${formatAmount(minimumWithdrawal(token), token.decimals)}${token.minWithdrawalAmount === null ? " (default)" : ""}`;
  const minPayment = `${formatAmount(minimumPayment(token), token.decimals)}${token.minPaymentAmount === null ? " (default)" : ""}`;
  return `${token.network.padEnd(11)} ${token.contractAddress}  ${token.symbol.padEnd(8)} ${String(token.decimals).padStart(2)} decimals  min forward ${min}  min withdrawal ${minWithdrawal}  min payment ${minPayment}  ${token.enabled ? "enabled" : "disabled"}`;
}
