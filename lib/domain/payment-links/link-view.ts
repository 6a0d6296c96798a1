/** The wire shape of a payment link, with its figures (completed payments only). */

import { getConfig } from "../../base/config";
import { formatAmount } from "../../base/money";
import type { PaymentLink, Token } from "../../db/schema";

export interface LinkStats {
  payments: number;
  received: bigint;
  lastPaymentAt: Date | string | null;
}

export function linkUrl(slug: string): string {
  return `${getConfig().siteUrl}/l/${slug}`;
}

export function toLinkView(link: PaymentLink, token: Pick<Token, "id" | "symbol" | "decimals" | "network">, stats: LinkStats) {
  return {
    linkId: link.id,
    url: linkUrl(link.slug),
    slug: link.slug,
    title: link.title,
    description: link.description,
    token: token.symbol,
    tokenId: token.id,
    network: token.network,
    amount: link.amount === null ? null : formatAmount(link.amount, token.decimals),
    minAmount: link.minAmount === null ? null : formatAmount(link.minAmount, token.decimals),
    domainId: link.domainId,
    redirectUrl: link.redirectUrl,
    active: link.active,
    createdAt: link.createdAt.toISOString(),
    stats: {
      payments: stats.payments,
      received: formatAmount(stats.received, token.decimals),
      lastPaymentAt: stats.lastPaymentAt === null ? null : new Date(stats.lastPaymentAt).toISOString(),
    },
  };
}

export type PaymentLinkView = ReturnType<typeof toLinkView>;
