import { networkConfig } from "../chain/networks";
import type { Db } from "../db";
import { AppError } from "../errors";
import { formatAmount } from "./amount";
import { qrCodeDataUri, tokenTransferUri } from "./eip681";
import { findSession } from "./find-session";

/**
 * What the public checkout page needs, and nothing about the merchant (no wallet, domain,
 * metadata or forward target): the session id is the only key to it.
 */
export async function getCheckoutView(db: Db, sessionId: string) {
  const found = await findSession(db, sessionId);
  if (!found) throw new AppError("NOT_FOUND", "payment session not found");
  const { session, token } = found;
  const chainId = networkConfig(session.network)?.chainId ?? session.chainId;
  const paymentUri = tokenTransferUri({
    tokenContract: token.contractAddress,
    chainId,
    depositAddress: session.depositAddress,
    units: session.amount,
  });
  return {
    sessionId: session.id,
    status: session.status,
    amount: formatAmount(session.amount, token.decimals),
    amountUnits: session.amount.toString(),
    receivedAmount: session.receivedAmount > 0n ? formatAmount(session.receivedAmount, token.decimals) : null,
    token: token.symbol,
    tokenAddress: token.contractAddress,
    decimals: token.decimals,
    depositAddress: session.depositAddress,
    network: session.network,
    chainId,
    expiresAt: session.expiresAt.toISOString(),
    txHash: session.txHash,
    redirectUrl: session.redirectUrl,
    paymentUri,
    qrCode: qrCodeDataUri(paymentUri),
  };
}
