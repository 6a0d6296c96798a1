/** The wire shape of a payment link, with its figures (completed payments only). */

import { getConfig } from "../../base/config";
import { formatAmount } from "../../base/money";
import type { PaymentLink, Token } from "../../db/schema";
import { FIAT_MINOR_UNITS, formatFiatAmount } from "../pricing/fiat";

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
    amount: linkAmount(link, token.decimals),
    minAmount: link.minAmount === null ? null : formatAmount(link.minAmount, token.decimals),
    // Priced in a currency only (docs/design.md §23): `amount` is in it.
    ...(link.currency !== null ? { currency: link.currency } : {}),
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

/** The fixed price as written: "25.00" in its currency, else the token amount; null when the payer chooses. */
export function linkAmount(link: Pick<PaymentLink, "amount" | "currency" | "fiatAmount">, decimals: number): string | null {
  if (link.currency !== null && link.fiatAmount !== null) return formatFiatAmount(link.fiatAmount, FIAT_MINOR_UNITS[link.currency] ?? 2);
  return link.amount === null ? null : formatAmount(link.amount, decimals);
}
