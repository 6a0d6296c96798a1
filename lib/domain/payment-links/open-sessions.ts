/**
 * What keeps a public link from being a machine for sessions (docs/design.md §21): the same client
 * pressing Pay again while its session is open gets that session back (no new deposit address);
 * one client (its limit key, whatever browser id or amount it sends) has at most
 * LINK_OPEN_SESSIONS_PER_CLIENT open unpaid sessions of a link — beyond it, its most recent open
 * session for the same amount, else 429; and a link has at most LINK_OPEN_SESSIONS open unpaid
 * sessions at once — beyond it Pay answers 429 RATE_LIMITED with Retry-After (when the oldest of
 * them expires), the page "busy, try again shortly". "Unpaid" is "not yet counted against the
 * quota" (lib/domain/plans/count-link-sessions.ts): dust sent to a deposit address leaves it unpaid.
 */

import { createHash } from "node:crypto";
import { and, asc, count, desc, eq, gt, isNull, like, min } from "drizzle-orm";
import { getConfig } from "../../base/config";
import type { AppError } from "../../base/errors";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { type PaymentSession, paymentSessions, type Token } from "../../db/schema";
import type { CreatedSession } from "../payments/create-session";
import { qrCodeDataUriOffThread, tokenTransferUri } from "../payments/eip681";
import { checkoutUrl } from "../payments/session-view";
import { type LinkReason, linkRefusal } from "./reasons";

/**
 * What a Pay asks for: a token amount (base units), or a fiat price (docs/design.md §23) — whose
 * token amount moves with each quote, so an open session of the same price is the same request.
 */
export type LinkSessionPrice = bigint | { currency: string; fiatMinor: bigint };

const ofPrice = (price: LinkSessionPrice) =>
  typeof price === "bigint"
    ? eq(paymentSessions.amount, price)
    : and(eq(paymentSessions.currency, price.currency), eq(paymentSessions.fiatAmount, price.fiatMinor));

/** Open unpaid sessions one client may hold on one link, however it varies `browser` and the amount. */
export const LINK_OPEN_SESSIONS_PER_CLIENT = 3;

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

/**
 * The client as stored on its session (link_client): a hash (per link) of its limit key — not the
 * address itself — then "." and a hash with the browser id the page sends, so payers sharing one
 * address (a NAT, a mobile carrier) are not handed each other's session while the client part
 * alone still finds every session of that address (the per-client cap).
 */
export function linkClientHash(linkId: number, clientKey: string, browser?: string): string {
  return `${hash(`${linkId}\n${clientKey}`)}.${hash(`${linkId}\n${clientKey}\n${browser ?? ""}`)}`;
}

const clientPart = (linkClient: string) => linkClient.slice(0, linkClient.indexOf(".") + 1);

const openOf = (linkId: number, now: Date) =>
  and(eq(paymentSessions.paymentLinkId, linkId), eq(paymentSessions.status, "pending"), gt(paymentSessions.expiresAt, now));
/** Not yet counted against the quota: nothing (or only dust) paid. */
const unpaid = isNull(paymentSessions.quotaCountedAt);

/**
 * The session Pay should answer instead of a new one, or null when a new one may be made;
 * RATE_LIMITED when neither. Run it again under the link's row lock before creating.
 */
export async function sessionToReuse(
  db: Db,
  linkId: number,
  linkClient: string,
  price: LinkSessionPrice,
  now = new Date(),
): Promise<PaymentSession | null> {
  const mine = await openSessionOf(db, linkId, linkClient, price, now);
  if (mine) return mine;
  const client = like(paymentSessions.linkClient, `${clientPart(linkClient)}%`);
  const [held] = await db
    .select({ open: count(), nextExpiry: min(paymentSessions.expiresAt) })
    .from(paymentSessions)
    .where(and(openOf(linkId, now), unpaid, client));
  if (held && held.open >= LINK_OPEN_SESSIONS_PER_CLIENT) {
    // Another browser id (or none) from the same client: the same amount gets its latest session back.
    const [latest] = await db
      .select()
      .from(paymentSessions)
      .where(and(openOf(linkId, now), client, ofPrice(price)))
      .orderBy(desc(paymentSessions.createdAt))
      .limit(1);
    if (latest) return latest;
    throw busy("link-client-busy", `you have ${LINK_OPEN_SESSIONS_PER_CLIENT} payments of this link open`, held.nextExpiry, now);
  }
  await assertRoomForSession(db, linkId, now);
  return null;
}

/** The client's open session of this link for this amount (same address and browser), if it has one. */
export async function openSessionOf(
  db: Db,
  linkId: number,
  client: string,
  price: LinkSessionPrice,
  now = new Date(),
): Promise<PaymentSession | null> {
  const [session] = await db
    .select()
    .from(paymentSessions)
    .where(and(openOf(linkId, now), eq(paymentSessions.linkClient, client), ofPrice(price)))
    .orderBy(asc(paymentSessions.createdAt))
    .limit(1);
  return session ?? null;
}

/** RATE_LIMITED while the link has its cap of open sessions nobody has paid (at least the minimum) to. */
export async function assertRoomForSession(db: Db, linkId: number, now = new Date()): Promise<void> {
  const cap = getConfig().linkOpenSessions;
  const [open] = await db
    .select({ open: count(), nextExpiry: min(paymentSessions.expiresAt) })
    .from(paymentSessions)
    .where(and(openOf(linkId, now), unpaid));
  if (!open || open.open < cap) return;
  throw busy("link-busy", `this payment link is busy (${cap} payments open)`, open.nextExpiry, now);
}

function busy(reason: LinkReason, what: string, nextExpiry: Date | string | null, now: Date): AppError {
  const at = nextExpiry ? new Date(nextExpiry).getTime() : now.getTime() + 60_000;
  const retryAfter = Math.max(1, Math.ceil((at - now.getTime()) / 1000));
  return linkRefusal("RATE_LIMITED", reason, `${what}; try again in ${retryAfter} s`, undefined, { "retry-after": String(retryAfter) });
}

/** The answer of Pay for a session that already exists (the same shape as a fresh one). */
export async function existingSessionAnswer(
  session: PaymentSession,
  token: Pick<Token, "symbol" | "decimals" | "contractAddress">,
): Promise<CreatedSession> {
  const uri = tokenTransferUri({
    tokenContract: token.contractAddress,
    chainId: session.chainId,
    depositAddress: session.depositAddress,
    units: session.amount,
  });
  return {
    sessionId: session.id,
    depositAddress: session.depositAddress,
    ephemeralAddress: session.depositAddress,
    qrCode: await qrCodeDataUriOffThread(uri),
    amount: formatAmount(session.amount, token.decimals),
    token: token.symbol,
    expiresAt: session.expiresAt.toISOString(),
    status: "pending",
    checkoutUrl: checkoutUrl(session.id),
    description: session.description,
    orderId: session.orderId,
  };
}
