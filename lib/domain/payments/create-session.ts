import { randomUUID } from "node:crypto";
import { is } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { getConfig, type NetworkConfig } from "../../base/config";
import { formatAmount, parseAmount } from "../../base/money";
import { normalizeOrigin } from "../../base/normalize-origin";
import type { Db } from "../../db";
import type { ApiKey, Token } from "../../db/schema";
import { networkConfig } from "../../engine/chain/networks";
import { assertNotServiceAddress } from "../merchant-domains/gateway-addresses";
import { acceptedTokenMinimum } from "../tokens/accepted-tokens";
import { findOwnToken } from "../tokens/find-own-token";
import { assertAtLeastMinimumPayment } from "../tokens/minimum-payment";
import { type DepositAddress, depositAddressPool } from "./deposit-address-pool";
import { qrCodeDataUriOffThread, tokenTransferUri } from "./eip681";
import type { FiatPrice } from "./fiat-price";
import { createdFiatFields, type FiatPaymentRequest, quoteValues } from "./fiat-session-fields";
import { insertSession } from "./insert-session";
import { amountRefusal, paymentRefusal } from "./reasons";
import type { CreatePaymentInput } from "./schemas";
import type { QuoteView } from "./session-quotes";
import { checkoutUrl } from "./session-view";

export interface CreatedSession {
  sessionId: string;
  depositAddress: string;
  ephemeralAddress: string;
  qrCode: string;
  amount: string;
  token: string;
  expiresAt: string;
  status: "pending";
  checkoutUrl: string;
  description: string | null;
  orderId: string | null;
  /** A fiat-priced session only (docs/design.md §23), after the seed's fields. */
  currency?: string;
  fiatAmount?: string;
  quotes?: QuoteView[];
}

/** Who creates the session: an API key (its row), or a user on the dashboard or a payment link's page (no key). */
export type SessionCreator =
  | Pick<ApiKey, "id" | "userId">
  | { userId: number; apiKeyId: null; paymentLinkId?: number /** lib/domain/payment-links/open-sessions.ts */; linkClient?: string };

/**
 * Creates a pending session with a fresh HD deposit address. Runs in the caller's transaction when
 * given one (idempotent creates), so a rejected request leaves nothing behind. Deposit addresses
 * come from the process's pool (indices reserved from a sequence, derived ahead): concurrent
 * creates on any number of processes never share one. In a transaction, pass the `deposit` taken
 * from the database's pool (`depositAddressPool(db).use`) before opening it.
 */
export async function createPaymentSession(
  db: Db,
  creator: SessionCreator,
  input: CreatePaymentInput | FiatPaymentRequest,
  origin: string | null,
  deposit?: DepositAddress,
): Promise<CreatedSession> {
  if (!deposit) {
    if (is(db, PgTransaction)) throw new Error("createPaymentSession in a transaction needs a deposit address taken before it");
    return depositAddressPool(db).use((taken) => createPaymentSession(db, creator, input, origin, taken));
  }
  const config = getConfig();
  const fiat = "price" in input ? input.price : null;
  const { token, network, units } = "price" in input ? fiatPriced(input.price) : await tokenPriced(db, creator.userId, input);
  await assertNotServiceAddress(db, input.merchantWallet, "merchantWallet");

  const sessionId = randomUUID();
  const fromLink = "paymentLinkId" in creator && creator.paymentLinkId !== undefined;
  // Drawn on the side thread while the database works; discarded if the create is refused.
  const uri = tokenTransferUri({ tokenContract: token.contractAddress, chainId: network.chainId, depositAddress: deposit.address, units });
  const qrCode = qrCodeDataUriOffThread(uri);
  qrCode.catch(() => {});
  const now = new Date();
  // A fiat session lives as long as its quotes hold: a transfer in that window counts at its quote.
  const expiresAt = new Date(now.getTime() + (fiat ? config.quoteTtlSeconds : config.sessionTtlSeconds) * 1000);
  await insertSession(
    db,
    {
      id: sessionId,
      userId: creator.userId,
      apiKeyId: "id" in creator ? creator.id : null,
      paymentLinkId: "paymentLinkId" in creator ? creator.paymentLinkId : undefined,
      linkClient: "linkClient" in creator ? creator.linkClient : undefined,
      // A link's session counts against the quota once something is paid to it (docs/design.md §21).
      quotaCountedAt: fromLink ? null : undefined,
      tokenId: token.id,
      network: token.network,
      chainId: network.chainId,
      depositIndex: deposit.index,
      depositAddress: deposit.address,
      depositTopic: deposit.address.slice(2).toLowerCase().padStart(64, "0"),
      amount: units,
      merchantWallet: input.merchantWallet ?? null,
      metadata: input.metadata ?? null,
      description: input.description ?? null,
      orderId: input.orderId ?? null,
      redirectUrl: input.redirectUrl ?? null,
      expiresAt,
      ...(fiat
        ? {
            currency: fiat.fiat.currency,
            fiatAmount: fiat.fiat.minor,
            rate: fiat.offered[0]?.rate,
            rateSource: fiat.offered[0]?.source,
            ratedAt: fiat.offered[0]?.quotedAt,
          }
        : {}),
    },
    {
      userId: creator.userId,
      domainId: input.domainId,
      origin,
      normalizedOrigin: origin === null ? null : normalizeOrigin(origin),
      now,
      countQuota: !fromLink,
    },
    fiat ? quoteValues(fiat, expiresAt) : [],
  );

  return {
    sessionId,
    depositAddress: deposit.address,
    ephemeralAddress: deposit.address,
    qrCode: await qrCode,
    amount: formatAmount(units, token.decimals),
    token: token.symbol,
    expiresAt: expiresAt.toISOString(),
    status: "pending",
    checkoutUrl: checkoutUrl(sessionId),
    description: input.description ?? null,
    orderId: input.orderId ?? null,
    ...(fiat ? createdFiatFields(fiat, expiresAt) : {}),
  };
}

/** A token amount: the merchant's token, served and accepted, and an amount at least its minimum payment. */
async function tokenPriced(
  db: Db,
  userId: number,
  input: CreatePaymentInput,
): Promise<{ token: Token; network: NetworkConfig; units: bigint }> {
  const token = await findOwnToken(db, userId, input.tokenId);
  if (!token) throw paymentRefusal("VALIDATION_ERROR", "token-unknown", `unknown tokenId ${input.tokenId}: register the token first`);
  const network = networkConfig(token.network);
  if (!network)
    throw paymentRefusal(
      "VALIDATION_ERROR",
      "token-network-not-served",
      `token ${token.symbol} is on network ${token.network}, which this server does not serve`,
    );

  const units = parseAmount(input.amount, token.decimals);
  if (typeof units === "string") throw amountRefusal("amount", units, token.decimals);

  const minimum = await acceptedTokenMinimum(db, token.network, token.contractAddress);
  if (minimum === null) {
    throw paymentRefusal(
      "VALIDATION_ERROR",
      "token-not-accepted",
      `the gateway no longer accepts ${token.symbol} (${token.contractAddress}) on ${token.network}; the operator disallowed it`,
    );
  }
  // Dust: a session below the token's minimum payment would cost the gas tank more than it moves.
  assertAtLeastMinimumPayment("amount", units, minimum, token);
  return { token, network, units };
}

/** A fiat price: the payer is first asked for the first offered token, at its quote (prepareFiatPrice checked the rest). */
function fiatPriced(price: FiatPrice): { token: Token; network: NetworkConfig; units: bigint } {
  const first = price.offered[0];
  const network = networkConfig(price.network);
  if (!first || !network) throw new Error("a fiat price offers at least one token on a served network");
  return { token: first.token, network, units: first.amount };
}
