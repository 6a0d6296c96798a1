/**
 * What keeps a public link from being a machine for sessions (DESIGN.md §21): the same client
 * pressing Pay again while its session is open gets that session back (no new deposit address),
 * and a link has at most LINK_OPEN_SESSIONS open unpaid sessions at once — beyond it Pay answers
 * 429 RATE_LIMITED with Retry-After (when the oldest of them expires), the page "busy, try again
 * shortly". Unpaid link sessions do not count against the quota (lib/packages/count-link-sessions.ts).
 */

import { createHash } from "node:crypto";
import { and, asc, count, eq, gt, min, sql } from "drizzle-orm";
import { qrCodeDataUriOffThread, tokenTransferUri } from "../checkout/eip681";
import { getConfig } from "../config";
import type { Db } from "../db";
import { type PaymentSession, paymentSessions, type Token } from "../db/schema";
import { AppError } from "../errors";
import { formatAmount } from "../payments/amount";
import type { CreatedSession } from "../payments/create-session";
import { checkoutUrl } from "../payments/session-view";

/**
 * The client as stored on its session: a hash (per link) of its limit key — not the address itself —
 * and of the browser id the page sends, so payers sharing one address (a NAT, a mobile carrier)
 * are not handed each other's session. A script that varies the id gets new sessions, within the
 * per-address limit and the link's cap.
 */
export function linkClientHash(linkId: number, clientKey: string, browser?: string): string {
  return createHash("sha256")
    .update(`${linkId}\n${clientKey}\n${browser ?? ""}`)
    .digest("hex")
    .slice(0, 32);
}

/** The client's open session of this link for this amount, if it has one. */
export async function openSessionOf(
  db: Db,
  linkId: number,
  client: string,
  units: bigint,
  now = new Date(),
): Promise<PaymentSession | null> {
  const [session] = await db
    .select()
    .from(paymentSessions)
    .where(
      and(
        eq(paymentSessions.paymentLinkId, linkId),
        eq(paymentSessions.status, "pending"),
        gt(paymentSessions.expiresAt, now),
        eq(paymentSessions.linkClient, client),
        eq(paymentSessions.amount, units),
      ),
    )
    .orderBy(asc(paymentSessions.createdAt))
    .limit(1);
  return session ?? null;
}

/** RATE_LIMITED while the link has its cap of open sessions nobody has paid anything to. */
export async function assertRoomForSession(db: Db, linkId: number, now = new Date()): Promise<void> {
  const cap = getConfig().linkOpenSessions;
  const [open] = await db
    .select({ open: count(), nextExpiry: min(paymentSessions.expiresAt) })
    .from(paymentSessions)
    .where(
      and(
        eq(paymentSessions.paymentLinkId, linkId),
        eq(paymentSessions.status, "pending"),
        gt(paymentSessions.expiresAt, now),
        eq(paymentSessions.receivedAmount, sql`0`),
      ),
    );
  if (!open || open.open < cap) return;
  const nextExpiry = open.nextExpiry ? new Date(open.nextExpiry).getTime() : now.getTime() + 60_000;
  const retryAfter = Math.max(1, Math.ceil((nextExpiry - now.getTime()) / 1000));
  throw new AppError("RATE_LIMITED", `this payment link is busy (${cap} payments open); try again in ${retryAfter} s`, undefined, {
    "retry-after": String(retryAfter),
  });
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
