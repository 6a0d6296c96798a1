/**
 * The per-client limits that guard security or money, counted in PostgreSQL (counters.ts) so
 * every instance shares them and a restart resets none (docs/design.md §21). The per-API-key request
 * rate and webhook redeliveries stay per process (lib/web/http/rate-limit.ts): they pace well-behaved
 * callers and guard nothing an attacker gains from.
 */

import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { countHit, limitedError } from "./counters";

/** Refund claims one client may submit per minute: a claim costs RPC calls, whoever sends it. */
export const REFUND_CLAIMS_PER_MINUTE = 10;
/** Sessions one client may start from payment links per minute (a repeated Pay returns its open session). */
export const LINK_PAYMENTS_PER_MINUTE = 10;
/**
 * A payer's changes on the hosted checkout (choosing a token, cancelling) one client may make per
 * minute: each is a write and an announcement to every open page of the session, and the session id
 * is the only key, so a script holding one must not turn it into a flood.
 */
export const CHECKOUT_CHANGES_PER_MINUTE = 30;

interface SharedLimit {
  what: string;
  max: () => number;
  windowMs: number;
}

export const SHARED_LIMITS = {
  login: { what: "sign-in attempts from this address", max: () => getConfig().loginRateLimitPerMinute, windowMs: 60_000 },
  register: { what: "sign-ups from this address", max: () => getConfig().registerRateLimitPerHour, windowMs: 3_600_000 },
  refundClaim: { what: "refund claims from this address", max: () => REFUND_CLAIMS_PER_MINUTE, windowMs: 60_000 },
  linkPay: { what: "payments started from this address", max: () => LINK_PAYMENTS_PER_MINUTE, windowMs: 60_000 },
  checkoutChange: { what: "checkout changes from this address", max: () => CHECKOUT_CHANGES_PER_MINUTE, windowMs: 60_000 },
} satisfies Record<string, SharedLimit>;

export type SharedLimitName = keyof typeof SHARED_LIMITS;

/** Counts one attempt of `subject` (a client key, lib/web/http/client-ip.ts) or RATE_LIMITED with Retry-After. */
export async function consumeLimit(db: Db, name: SharedLimitName, subject: string, now = new Date()): Promise<void> {
  const limit: SharedLimit = SHARED_LIMITS[name];
  const window = await countHit(db, `${name}:${subject}`, limit.windowMs, now);
  if (window.hits > limit.max()) throw limitedError(limit.what, window, now);
}
