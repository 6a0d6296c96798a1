/**
 * The wire shape of a refund (API, webhooks, dashboard): amounts are decimal strings of whole
 * tokens. `claimUrl` carries the claim link's secret, so it is null in every view but the answer
 * that made the link (withClaimUrl: the refund's creation, or a new link) — lists, pages,
 * webhooks and replays never have it; `claimLinkIssued` says whether a link exists.
 */

import { formatAmount } from "../../base/money";
import type { Refund, Withdrawal } from "../../db/schema";
import { FIAT_MINOR_UNITS, formatFiatAmount } from "../pricing/fiat";
import { claimUrl } from "./claim-secret";

export type RefundSource = {
  refund: Refund;
  token: { symbol: string; decimals: number };
  network: string;
  withdrawal: Pick<Withdrawal, "id" | "txHash"> | null;
};

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
    claimUrl: null as string | null,
    claimLinkIssued: refund.claimSecretHash !== null,
    claimExpiresAt: refund.claimExpiresAt.toISOString(),
    withdrawalId: withdrawal?.id ?? null,
    txHash: withdrawal?.txHash ?? null,
    reason: refund.reason,
    createdAt: refund.createdAt.toISOString(),
    completedAt: refund.completedAt?.toISOString() ?? null,
    ...basisFields(refund),
  };
}

/**
 * A fiat-priced payment's refund adds its basis after the seed's keys; with basis "fiat", the fiat
 * amount and the rate it used. A token-priced payment's refund has none of these keys at all.
 */
function basisFields(refund: Refund): {
  basis?: "tokens" | "fiat";
  currency?: string;
  fiatAmount?: string;
  rate?: string;
  rateSource?: string;
  ratedAt?: string;
} {
  if (refund.basis === null) return {};
  if (refund.basis === "tokens" || refund.currency === null || refund.fiatAmount === null) return { basis: "tokens" };
  return {
    basis: "fiat",
    currency: refund.currency,
    fiatAmount: formatFiatAmount(refund.fiatAmount, FIAT_MINOR_UNITS[refund.currency] ?? 2),
    rate: refund.rate ?? "",
    rateSource: refund.rateSource ?? "",
    ratedAt: refund.ratedAt?.toISOString() ?? "",
  };
}

export type RefundView = ReturnType<typeof toRefundView>;

/** The view in the one answer that carries the claim link: to the member who made the link, once. */
export function withClaimUrl(view: RefundView, secret: string): RefundView {
  return { ...view, claimUrl: claimUrl(view.refundId, secret), claimLinkIssued: true };
}
