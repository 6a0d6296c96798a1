import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import type { Token } from "../../db/schema";
import { findCatalogueToken, minimumWithdrawal } from "./catalogue";
import { tokenRefusal } from "./reasons";

/** A withdrawal of a token the operator disallowed, or below its minimum, is refused before anything is spent. */
export async function assertWithdrawable(
  db: Db,
  token: Pick<Token, "network" | "contractAddress" | "symbol" | "decimals">,
  units: bigint,
): Promise<void> {
  const entry = await findCatalogueToken(db, token.network, token.contractAddress);
  if (!entry?.enabled) {
    throw tokenRefusal(
      "VALIDATION_ERROR",
      "token-withdrawal-not-accepted",
      `${token.symbol} is no longer accepted by this gateway (the operator disallowed it), so it cannot be withdrawn through it; nothing was sent`,
      [{ path: "tokenId", message: `${token.symbol} is not accepted by this gateway` }],
    );
  }
  const minimum = minimumWithdrawal(entry);
  if (units < minimum) {
    const shown = `${formatAmount(minimum, token.decimals)} ${token.symbol}`;
    throw tokenRefusal(
      "VALIDATION_ERROR",
      "withdrawal-below-minimum",
      `amount must be at least ${shown}: smaller withdrawals cost more gas than they move`,
      [{ path: "amount", message: `must be at least ${shown}` }],
    );
  }
}
