/**
 * A fiat price's offer (docs/design.md §23): which of the merchant's tokens may pay it and each one's
 * exact amount, at quotes read from the chain's price feeds now. Runs before any transaction (it
 * reads the chain), and the idempotent create throws its refusal only once the key is checked, so a
 * replay answers the first response even after a feed went stale.
 */

import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { type CatalogueToken, type Token, tokenCatalogue, tokens } from "../../db/schema";
import { networkConfig } from "../../engine/chain/networks";
import { type FiatAmount, formatFiatAmount, parseFiatAmount } from "../pricing/fiat";
import { pricedCatalogueToken, quoteTokensOnChain } from "../pricing/price-tokens";
import { pricingRefusal } from "../pricing/reasons";
import { minimumPayment } from "../tokens/minimum-payment";
import { amountRefusal, paymentRefusal } from "./reasons";
import type { CreateFiatPaymentInput } from "./schemas";

export interface OfferedQuote {
  token: Token;
  amount: bigint;
  rate: string;
  source: string;
  quotedAt: Date;
  offPeg: boolean;
}

export interface FiatPrice {
  network: string;
  fiat: FiatAmount;
  /** In the order offered; never empty. */
  offered: OfferedQuote[];
}

/** The price's offer now, or the refusal a create must answer with. */
export async function prepareFiatPrice(
  db: Db,
  userId: number,
  input: Pick<CreateFiatPaymentInput, "currency" | "amount" | "tokens">,
  now = new Date(),
): Promise<FiatPrice> {
  const parsed = parseFiatAmount(input.currency, input.amount);
  if (!parsed.ok) {
    if (parsed.problem === "currency-unsupported")
      throw pricingRefusal(
        "VALIDATION_ERROR",
        "currency-unsupported",
        `currency ${input.currency} is not one this gateway prices in (USD, EUR, …)`,
      );
    throw amountRefusal("amount", parsed.problem, minorDigitsOf(input.currency));
  }
  const { network, candidates } = await candidateTokens(db, userId, input.tokens);
  const results = await quoteTokensOnChain(db, {
    network,
    fiat: parsed.amount,
    tokens: candidates.map(({ token, catalogue }) => ({ ...pricedCatalogueToken(catalogue), merchantToken: token })),
    now,
  });
  const offered: OfferedQuote[] = [];
  const refused: { path: string; message: string }[] = [];
  for (const result of results) {
    const token = result.token.merchantToken;
    if (!result.ok) refused.push({ path: "tokens", message: `${token.symbol}: ${result.unavailable}` });
    else if (result.amount < minimumPayment(result.token.row))
      refused.push({ path: "tokens", message: `${token.symbol}: amount-below-minimum` });
    else
      offered.push({
        token,
        amount: result.amount,
        rate: result.rate,
        source: result.source,
        quotedAt: result.quotedAt,
        offPeg: result.offPeg,
      });
  }
  if (offered.length === 0)
    throw paymentRefusal(
      "VALIDATION_ERROR",
      "no-token-offered",
      `no accepted token can pay ${formatFiatAmount(parsed.amount.minor, parsed.amount.minorDigits)} ${parsed.amount.currency} now`,
      refused,
    );
  return { network, fiat: parsed.amount, offered };
}

function minorDigitsOf(currency: string): number {
  const parsed = parseFiatAmount(currency, "1");
  return parsed.ok ? parsed.amount.minorDigits : 2;
}

/**
 * The tokens a fiat session may offer: those named (each the merchant's, served, accepted, all on
 * one network), else every accepted token the merchant registered on the network of its first one.
 */
async function candidateTokens(
  db: Db,
  userId: number,
  named: number[] | undefined,
): Promise<{ network: string; candidates: { token: Token; catalogue: CatalogueToken }[] }> {
  const rows = await db
    .select({ token: tokens, catalogue: tokenCatalogue })
    .from(tokens)
    .leftJoin(
      tokenCatalogue,
      and(eq(tokenCatalogue.network, tokens.network), sql`lower(${tokenCatalogue.contractAddress}) = lower(${tokens.contractAddress})`),
    )
    .where(and(eq(tokens.userId, userId), named ? inArray(tokens.id, named) : undefined))
    .orderBy(asc(tokens.id));
  const served = (row: (typeof rows)[number]) => networkConfig(row.token.network) !== undefined;
  const accepted = (row: (typeof rows)[number]): row is { token: Token; catalogue: CatalogueToken } => row.catalogue?.enabled === true;
  if (named) {
    const byId = new Map(rows.map((row) => [row.token.id, row]));
    const ordered = named.map((id) => {
      const row = byId.get(id);
      if (!row) throw paymentRefusal("VALIDATION_ERROR", "token-unknown", `unknown tokenId ${id} in tokens: register the token first`);
      if (!served(row))
        throw paymentRefusal(
          "VALIDATION_ERROR",
          "token-network-not-served",
          `token ${row.token.symbol} is on network ${row.token.network}, which this server does not serve`,
        );
      if (!accepted(row))
        throw paymentRefusal(
          "VALIDATION_ERROR",
          "token-not-accepted",
          `the gateway no longer accepts ${row.token.symbol} on ${row.token.network}`,
        );
      return row;
    });
    const networks = new Set(ordered.map((row) => row.token.network));
    if (networks.size > 1)
      throw paymentRefusal(
        "VALIDATION_ERROR",
        "tokens-span-networks",
        `tokens are on ${[...networks].join(" and ")}: one session is paid on one network`,
      );
    // biome-ignore lint/style/noNonNullAssertion: the schema asks for at least one tokenId
    return { network: ordered[0]!.token.network, candidates: ordered };
  }
  const usable = rows.filter(served).filter(accepted);
  const first = usable[0];
  if (!first) throw paymentRefusal("VALIDATION_ERROR", "token-unknown", "no token to pay with: register a token the gateway accepts first");
  return { network: first.token.network, candidates: usable.filter((row) => row.token.network === first.token.network) };
}
