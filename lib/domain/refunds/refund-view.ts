/** The wire shape of a refund (API, webhooks, dashboard): amounts are decimal strings of whole tokens. */

import { getConfig } from "../../base/config";
import { formatAmount } from "../../base/money";
import type { Refund, Withdrawal } from "../../db/schema";

export type RefundSource = {
  refund: Refund;
  token: { symbol: string; decimals: number };
  network: string;
  withdrawal: Pick<Withdrawal, "id" | "txHash"> | null;
};

export function claimUrl(refundId: string): string {
  return `${getConfig().siteUrl}/refund/${refundId}`;
}

export function toRefundView({ refund, token, network, withdrawal }: RefundSource) {
  return {
    refundId: refund.id,
    sessionId: refund.sessionId,
    status: refund.status,
    amount: formatAmount(refund.amount, token.decimals),
    token: token.symbol,
    network,
    toAddress: refund.toAddress,
    addressFrom: refund.addressFrom,
    claimUrl: claimUrl(refund.id),
    claimExpiresAt: refund.claimExpiresAt.toISOString(),
    withdrawalId: withdrawal?.id ?? null,
    txHash: withdrawal?.txHash ?? null,
    reason: refund.reason,
    createdAt: refund.createdAt.toISOString(),
    completedAt: refund.completedAt?.toISOString() ?? null,
  };
}

export type RefundView = ReturnType<typeof toRefundView>;
