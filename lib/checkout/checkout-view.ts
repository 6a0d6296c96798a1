/**
 * What the public checkout page needs, and nothing about the merchant (no wallet, domain,
 * metadata or forward target): the session id is the only key to it. While something is still
 * owed, the QR code and the EIP-681 link ask for the remaining amount, not the whole one.
 */

import { displayedConfirmations } from "../chain/confirmations";
import { networkConfig } from "../chain/networks";
import type { Db } from "../db";
import type { PaymentSession, Token } from "../db/schema";
import { AppError } from "../errors";
import { formatAmount } from "../payments/amount";
import { findSession } from "../payments/find-session";
import { qrCodeDataUri, tokenTransferUri } from "./eip681";

export async function getCheckoutView(db: Db, sessionId: string) {
  const found = await findSession(db, sessionId);
  if (!found) throw new AppError("NOT_FOUND", "payment session not found");
  return toCheckoutView(found.session, found.token);
}

export type CheckoutView = ReturnType<typeof toCheckoutView>;

export function toCheckoutView(session: PaymentSession, token: Pick<Token, "symbol" | "decimals" | "contractAddress">) {
  const network = networkConfig(session.network);
  const chainId = network?.chainId ?? session.chainId;
  const remaining = session.receivedAmount >= session.amount ? 0n : session.amount - session.receivedAmount;
  const paymentUri = tokenTransferUri({
    tokenContract: token.contractAddress,
    chainId,
    depositAddress: session.depositAddress,
    units: remaining > 0n ? remaining : session.amount,
  });
  return {
    sessionId: session.id,
    ...checkoutStatus(session, token, network ? displayedConfirmations(network.finality) : 1),
    amount: formatAmount(session.amount, token.decimals),
    amountUnits: session.amount.toString(),
    token: token.symbol,
    tokenAddress: token.contractAddress,
    decimals: token.decimals,
    depositAddress: session.depositAddress,
    network: session.network,
    chainId,
    createdAt: session.createdAt.toISOString(),
    redirectUrl: session.redirectUrl && /^https?:\/\//i.test(session.redirectUrl) ? session.redirectUrl : null,
    paymentUri,
    qrCode: qrCodeDataUri(paymentUri),
  };
}

/**
 * The part of the view that changes while the page is open: what the live event stream sends.
 * Exact at read time: a pending session past its expiresAt is reported expired.
 */
export function checkoutStatus(session: PaymentSession, token: Pick<Token, "decimals">, confirmationsRequired: number, now = new Date()) {
  const status = session.status === "pending" && session.expiresAt.getTime() <= now.getTime() ? "expired" : session.status;
  const remaining = session.receivedAmount >= session.amount ? 0n : session.amount - session.receivedAmount;
  return {
    status,
    receivedAmount: session.receivedAmount > 0n ? formatAmount(session.receivedAmount, token.decimals) : null,
    remainingAmount: formatAmount(remaining, token.decimals),
    remainingUnits: remaining.toString(),
    overpaid: session.overpaid,
    overpaidAmount: session.overpaid ? formatAmount(session.receivedAmount - session.amount, token.decimals) : null,
    late: session.late,
    lateAmount: session.lateAmount > 0n ? formatAmount(session.lateAmount, token.decimals) : null,
    txHash: session.txHash,
    expiresAt: session.expiresAt.toISOString(),
    confirmationsRequired: Math.max(1, confirmationsRequired),
  };
}

export type CheckoutStatus = ReturnType<typeof checkoutStatus>;
