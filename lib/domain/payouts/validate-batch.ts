/**
 * What makes a payout batch valid (docs/design.md §24), apart from the wallet's balance: the
 * domain and token are the account's, the token is served and may be paid out, and every item's
 * amount and recipient pass. The API's recording (record-batch.ts) and the dashboard's review of
 * an uploaded CSV (dashboard-payouts.ts) both ask here, so they refuse the same items the same way.
 */

import { getAddress } from "viem";
import { commonRefusal, type ErrorDetail } from "../../base/errors";
import { amountProblemMessage, formatAmount, parseAmount } from "../../base/money";
import type { Db } from "../../db";
import type { Domain, Token } from "../../db/schema";
import { BATCH_PAYERS } from "../../engine/chain/batch-payer";
import { networkConfig } from "../../engine/chain/networks";
import { isReservedAddress } from "../../engine/chain/service-addresses";
import { isServiceAddress } from "../merchant-domains/gateway-addresses";
import { getOwnDomain } from "../merchant-domains/manage-domains";
import { paymentRefusal } from "../payments/reasons";
import { findCatalogueToken, minimumWithdrawal } from "../tokens/catalogue";
import { findOwnToken } from "../tokens/find-own-token";
import { tokenRefusal } from "../tokens/reasons";
import type { NewPayoutItem } from "./payout-records";
import { type PayoutRequestInput, payoutItemSchema } from "./schemas";

export interface CheckedPayoutBatch {
  domain: Domain;
  token: Token;
  /** The items whose amount parsed (in the input's order, `position` = their index in `input.items`). */
  items: NewPayoutItem[];
  /** Every bad item, named `items.<index>.<field>`; empty when the batch may be recorded. */
  details: ErrorDetail[];
}

/**
 * Checks the batch without writing anything. A domain or token that is not the account's, or a
 * token that cannot be paid out, throws (the whole batch is wrong); bad items are listed in `details`.
 */
export async function checkPayoutBatch(db: Db, accountId: number, input: PayoutRequestInput): Promise<CheckedPayoutBatch> {
  const domain = await getOwnDomain(db, accountId, input.domainId).catch(() => {
    throw commonRefusal("NOT_FOUND", "not-found", `domain ${input.domainId} not found`);
  });
  const token = await findOwnToken(db, accountId, input.tokenId);
  if (!token) throw commonRefusal("NOT_FOUND", "not-found", `token ${input.tokenId} not found`);
  if (!networkConfig(token.network))
    throw paymentRefusal(
      "VALIDATION_ERROR",
      "token-network-not-served",
      `token ${token.symbol} is on network ${token.network}, which this server does not serve`,
    );
  const entry = await findCatalogueToken(db, token.network, token.contractAddress);
  if (!entry?.enabled)
    throw tokenRefusal(
      "VALIDATION_ERROR",
      "token-withdrawal-not-accepted",
      `${token.symbol} is no longer accepted by this gateway (the operator disallowed it), so it cannot be paid out; nothing was sent`,
      [{ path: "tokenId", message: `${token.symbol} is not accepted by this gateway` }],
    );
  const minimum = minimumWithdrawal(entry);

  const details: ErrorDetail[] = [];
  const items: NewPayoutItem[] = [];
  for (const [index, raw] of input.items.entries()) {
    // The item's shape (an address, an amount string, a reference) first: each problem is named, then the item is skipped.
    const shaped = payoutItemSchema.safeParse(raw);
    if (!shaped.success) {
      for (const issue of shaped.error.issues)
        details.push({ path: ["items", index, ...issue.path].map(String).join("."), message: issue.message });
      continue;
    }
    const item = shaped.data;
    const units = parseAmount(item.amount, token.decimals);
    if (typeof units === "string")
      details.push({ path: `items.${index}.amount`, message: amountProblemMessage("amount", units, token.decimals) });
    else if (units < minimum)
      details.push({ path: `items.${index}.amount`, message: `must be at least ${formatAmount(minimum, token.decimals)} ${token.symbol}` });
    const to = getAddress(item.toAddress);
    if (isReservedAddress(to))
      details.push({
        path: `items.${index}.toAddress`,
        message: "is the zero address, a precompile or a system contract: funds sent there are lost",
      });
    else if (BATCH_PAYERS.some((payer) => payer.toLowerCase() === to.toLowerCase()) || (await isServiceAddress(db, to)))
      details.push({ path: `items.${index}.toAddress`, message: "is an address of this gateway; send funds to a wallet outside it" });
    if (typeof units !== "string") items.push({ position: index, toAddress: to, amount: units, reference: item.reference ?? null });
  }
  return { domain, token, items, details };
}
