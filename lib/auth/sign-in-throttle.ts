/**
 * Failed sign-ins per account (DESIGN.md §18), on top of the per-address limit: a password guessed
 * from many addresses at once still gets MAX_FAILURES tries per window. Only failures count, so a
 * script that signs in correctly as often as it likes is never slowed; a success clears the count.
 * Unknown emails are counted the same way, so the answer tells nothing about which accounts exist.
 * Per process, like the other limiters; at most MAX_ACCOUNTS are remembered.
 */

import { AppError } from "../errors";

export const MAX_SIGN_IN_FAILURES = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
const MAX_ACCOUNTS = 100_000;

const KEY = Symbol.for("bsc-pay.sign-in-failures");
type Holder = { [KEY]?: Map<string, { failures: number; since: number }> };

function failures(): Map<string, { failures: number; since: number }> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/** RATE_LIMITED (with Retry-After) while the account has used up its failed attempts. */
export function assertSignInAllowed(email: string, now = Date.now()): void {
  const entry = failures().get(email);
  if (!entry || now - entry.since >= SIGN_IN_WINDOW_MS) return;
  if (entry.failures < MAX_SIGN_IN_FAILURES) return;
  const retryAfter = Math.max(1, Math.ceil((entry.since + SIGN_IN_WINDOW_MS - now) / 1000));
  throw new AppError("RATE_LIMITED", `too many failed sign-ins for this account; retry in ${retryAfter} s`, undefined, {
    "retry-after": String(retryAfter),
  });
}

export function recordSignInFailure(email: string, now = Date.now()): void {
  const map = failures();
  const entry = map.get(email);
  const fresh = !entry || now - entry.since >= SIGN_IN_WINDOW_MS ? { failures: 0, since: now } : entry;
  fresh.failures += 1;
  map.delete(email); // re-inserted last: the map's order is least recently used first
  map.set(email, fresh);
  // biome-ignore lint/style/noNonNullAssertion: the map holds more than MAX_ACCOUNTS entries here, so it has a first key
  if (map.size > MAX_ACCOUNTS) map.delete(map.keys().next().value!);
}

export function clearSignInFailures(email: string): void {
  failures().delete(email);
}

/** Tests: a fresh process. */
export function forgetSignInFailures(): void {
  failures().clear();
}
