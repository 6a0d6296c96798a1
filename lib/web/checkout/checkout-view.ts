/**
 * What the public checkout page needs: the session id is the only key to it. Of the merchant it
 * tells only what the payer must see to know whom they pay — the shop's host (the session's
 * domain), its description and order reference — and never its wallets, metadata or forward
 * target. While something is still owed, the QR code and the EIP-681 link ask for the remaining
 * amount, not the whole one.
 */

import { eq } from "drizzle-orm";
import { commonRefusal } from "../../base/errors";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { domains, type PaymentSession, type Token } from "../../db/schema";
import { fiatThresholdsOfDomains } from "../../domain/merchant-domains/fiat-thresholds";
import { qrCodeDataUri, tokenTransferUri } from "../../domain/payments/eip681";
import { findSession } from "../../domain/payments/find-session";
import { type QuoteRow, quotesOf } from "../../domain/payments/session-quotes";
import { FIAT_MINOR_UNITS, formatFiatAmount } from "../../domain/pricing/fiat";
import { displayedConfirmations } from "../../engine/chain/confirmations";
import { networkConfig } from "../../engine/chain/networks";

export async function getCheckoutView(db: Db, sessionId: string) {
  const found = await findSession(db, sessionId);
  if (!found) throw commonRefusal("NOT_FOUND", "not-found", "payment session not found");
  const { session } = found;
  const quotes = session.currency ? ((await quotesOf(db, [session.id])).get(session.id) ?? []) : [];
  // The terms a fiat session is settled by: its domain's under-payment tolerance, else the gateway's.
  const underpayBps = session.currency ? Number((await fiatThresholdsOfDomains(db, [session.domainId]))(session.domainId).underpayBps) : 0;
  return toCheckoutView(session, found.token, await shopOrigin(db, session.domainId), quotes, underpayBps);
}

/** The origin of the domain the session was created for (kept even if the merchant deleted it since). */
export async function shopOrigin(db: Db, domainId: number | null): Promise<string | null> {
  if (domainId === null) return null;
  const [row] = await db.select({ origin: domains.origin }).from(domains).where(eq(domains.id, domainId)).limit(1);
  return row?.origin ?? null;
}

export type CheckoutView = ReturnType<typeof toCheckoutView>;

export function toCheckoutView(
  session: PaymentSession,
  token: Pick<Token, "symbol" | "decimals" | "contractAddress">,
  origin: string | null = null,
  quotes: readonly QuoteRow[] = [],
  underpayBps = 0,
) {
  const network = networkConfig(session.network);
  const chainId = network?.chainId ?? session.chainId;
  const remaining = session.receivedAmount >= session.amount ? 0n : session.amount - session.receivedAmount;
  const redirectUrl = session.redirectUrl && /^https?:\/\//i.test(session.redirectUrl) ? session.redirectUrl : null;
  const shop = origin ? parseOrigin(origin) : null;
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
    /** The shop's page for a completed payment: shops read a visit to it as "paid". */
    redirectUrl,
    /** The shop's own origin: where a payment that did not complete (expired, cancelled) goes back to. */
    shopUrl: shop?.origin ?? null,
    /** "shop.example.com": whom the payer is paying. */
    shopHost: shop?.host ?? null,
    description: session.description,
    orderId: session.orderId,
    paymentUri,
    qrCode: qrCodeDataUri(paymentUri),
    /** A fiat-priced session's price and its locked quotes (docs/design.md §23); null for a session priced in a token. */
    fiat: fiatOf(session, quotes, underpayBps),
  };
}

/** One quote as the token picker shows it; `amount` in whole tokens, `amountUnits` in base units. */
export interface CheckoutQuote {
  tokenId: number;
  token: string;
  tokenAddress: string;
  decimals: number;
  amount: string;
  amountUnits: string;
  /** The fiat price of one whole token, 8 decimals ("1.00000000"). */
  rate: string;
  /** A stablecoin priced at its feed's rate, away from its peg: the payer is told. */
  offPeg: boolean;
  quoteExpiresAt: string;
}

export interface CheckoutFiat {
  currency: string;
  /** "25.00": every minor digit of the currency. */
  fiatAmount: string;
  /** Whether the payer chose the token (otherwise it is the first offered). */
  tokenChosen: boolean;
  /**
   * The terms: a payment short of the price by less than this many basis points completes it (its
   * domain's `fiatUnderpayBps`, else FIAT_UNDERPAY_BPS); the page says so when above 0.
   */
  underpayBps: number;
  quotes: CheckoutQuote[];
}

function fiatOf(session: PaymentSession, quotes: readonly QuoteRow[], underpayBps: number): CheckoutFiat | null {
  if (session.currency === null || session.fiatAmount === null) return null;
  return {
    currency: session.currency,
    fiatAmount: formatFiatAmount(session.fiatAmount, FIAT_MINOR_UNITS[session.currency] ?? 2),
    tokenChosen: session.tokenChosenAt !== null,
    underpayBps,
    quotes: quotes.map((q) => ({
      tokenId: q.tokenId,
      token: q.symbol,
      tokenAddress: q.contractAddress,
      decimals: q.decimals,
      amount: formatAmount(q.amount, q.decimals),
      amountUnits: q.amount.toString(),
      rate: q.rate,
      offPeg: q.offPeg,
      quoteExpiresAt: q.expiresAt.toISOString(),
    })),
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
    completedAt: session.completedAt?.toISOString() ?? null,
    expiresAt: session.expiresAt.toISOString(),
    confirmationsRequired: Math.max(1, confirmationsRequired),
  };
}

export type CheckoutStatus = ReturnType<typeof checkoutStatus>;

function parseOrigin(origin: string): { origin: string; host: string } | null {
  try {
    const url = new URL(origin);
    return /^https?:$/.test(url.protocol) ? { origin: url.origin, host: url.host } : null;
  } catch {
    return null;
  }
}
