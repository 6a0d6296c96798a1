import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { keyRingFor } from "../chain/keys";
import { networkConfig } from "../chain/networks";
import { getConfig } from "../config";
import type { Db } from "../db";
import { rowsOf } from "../db/rows";
import { paymentSessions, type ApiKey } from "../db/schema";
import { assertNotServiceAddress } from "../chain/service-addresses";
import { isAcceptedToken } from "../tokens/accepted-tokens";
import { findOwnToken } from "../tokens/find-own-token";
import { AppError } from "../errors";
import { countSessionAgainstQuota, requireActivePlan } from "../packages/current-package";
import { amountProblemMessage, formatAmount, parseAmount } from "./amount";
import { qrCodeDataUri, tokenTransferUri } from "./eip681";
import { resolveSessionDomain } from "./resolve-domain";
import type { CreatePaymentInput } from "./schemas";
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
}

/**
 * Creates a pending session with the next HD deposit address. Runs in the caller's transaction
 * when given one (idempotent creates), so a rejected request leaves nothing behind; the deposit
 * index comes from a sequence, so concurrent creates on any number of processes never share one.
 */
export async function createPaymentSession(
  db: Db,
  apiKey: Pick<ApiKey, "id" | "userId">,
  input: CreatePaymentInput,
  origin: string | null,
): Promise<CreatedSession> {
  const config = getConfig();
  const token = await findOwnToken(db, apiKey.userId, input.tokenId);
  if (!token) throw new AppError("VALIDATION_ERROR", `unknown tokenId ${input.tokenId}: register the token first`);
  const network = networkConfig(token.network);
  if (!network) throw new AppError("VALIDATION_ERROR", `token ${token.symbol} is on network ${token.network}, which this server does not serve`);

  const units = parseAmount(input.amount, token.decimals);
  if (typeof units === "string") throw new AppError("VALIDATION_ERROR", amountProblemMessage("amount", units, token.decimals));

  if (!(await isAcceptedToken(db, token.network, token.contractAddress))) {
    throw new AppError("VALIDATION_ERROR", `the gateway no longer accepts ${token.symbol} (${token.contractAddress}) on ${token.network}; the operator disallowed it`);
  }
  await assertNotServiceAddress(db, input.merchantWallet, "merchantWallet");

  const domain = await resolveSessionDomain(db, apiKey.userId, { domainId: input.domainId, origin });
  const forwardTo = input.merchantWallet ?? domain.payoutAddress ?? domain.withdrawalAddress!;
  const sessionId = randomUUID();
  const expiresAt = new Date(Date.now() + config.sessionTtlSeconds * 1000);

  const plan = await requireActivePlan(db, apiKey.userId);
  // Taken before the transaction: a create that fails later leaves a gap, never a reused address.
  const [row] = rowsOf<{ index: string | number }>(await db.execute(sql`select nextval('deposit_index_seq') as index`));
  const depositIndex = Number(row!.index);
  const depositAddress = keyRingFor(config.masterMnemonic).depositAddress(depositIndex);
  await db.transaction(async (tx) => {
    await countSessionAgainstQuota(tx, apiKey.userId, plan);
    await tx.insert(paymentSessions).values({
      id: sessionId,
      userId: apiKey.userId,
      apiKeyId: apiKey.id,
      tokenId: token.id,
      domainId: domain.id,
      network: token.network,
      chainId: network.chainId,
      depositIndex,
      depositAddress,
      depositTopic: depositAddress.slice(2).toLowerCase().padStart(64, "0"),
      amount: units,
      forwardTo,
      merchantWallet: input.merchantWallet ?? null,
      metadata: input.metadata ?? null,
      redirectUrl: input.redirectUrl ?? null,
      expiresAt,
    });
  });

  const uri = tokenTransferUri({ tokenContract: token.contractAddress, chainId: network.chainId, depositAddress, units });
  return {
    sessionId,
    depositAddress,
    ephemeralAddress: depositAddress,
    qrCode: qrCodeDataUri(uri),
    amount: formatAmount(units, token.decimals),
    token: token.symbol,
    expiresAt: expiresAt.toISOString(),
    status: "pending",
    checkoutUrl: checkoutUrl(sessionId),
  };
}
