/** The wire shapes of a session; amounts are canonical decimal strings of whole tokens. */

import { getConfig } from "../../base/config";
import { formatAmount } from "../../base/money";
import type { PaymentSession, Token } from "../../db/schema";

export type SessionWithToken = { session: PaymentSession; token: Pick<Token, "symbol" | "decimals" | "contractAddress"> };

export function checkoutUrl(sessionId: string): string {
  return `${getConfig().siteUrl}/pay/${sessionId}`;
}

function received(session: Pick<PaymentSession, "receivedAmount">, decimals: number): string | null {
  return session.receivedAmount > 0n ? formatAmount(session.receivedAmount, decimals) : null;
}

/** What the status view reads of a session and its token. */
export type StatusViewSource = {
  session: Pick<
    PaymentSession,
    "id" | "status" | "amount" | "receivedAmount" | "txHash" | "expiresAt" | "overpaid" | "late" | "lateAmount" | "description" | "orderId"
  >;
  token: Pick<Token, "symbol" | "decimals">;
};

export function toStatusView({ session, token }: StatusViewSource) {
  return {
    sessionId: session.id,
    status: session.status,
    amount: formatAmount(session.amount, token.decimals),
    receivedAmount: received(session, token.decimals),
    txHash: session.txHash,
    expiresAt: session.expiresAt.toISOString(),
    token: token.symbol,
    overpaid: session.overpaid,
    late: session.late,
    lateAmount: session.lateAmount > 0n ? formatAmount(session.lateAmount, token.decimals) : null,
    description: session.description,
    orderId: session.orderId,
  };
}

export function toHistoryItem({ session, token }: SessionWithToken) {
  return {
    sessionId: session.id,
    depositAddress: session.depositAddress,
    ephemeralAddress: session.depositAddress,
    amount: formatAmount(session.amount, token.decimals),
    token: token.symbol,
    status: session.status,
    receivedAmount: received(session, token.decimals),
    txHash: session.txHash,
    overpaid: session.overpaid,
    late: session.late,
    lateAmount: session.lateAmount > 0n ? formatAmount(session.lateAmount, token.decimals) : null,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    checkoutUrl: checkoutUrl(session.id),
    metadata: (session.metadata as Record<string, unknown> | null) ?? null,
    description: session.description,
    orderId: session.orderId,
  };
}
