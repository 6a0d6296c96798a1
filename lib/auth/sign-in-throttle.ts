/**
 * Failed sign-ins per account (DESIGN.md §18, §21), on top of the per-address limit: a password
 * guessed from many addresses at once still gets MAX_SIGN_IN_FAILURES tries per window. Only
 * failures count, so a script that signs in correctly as often as it likes is never slowed; a
 * success clears the count. Unknown emails are counted the same way, so the answer tells nothing
 * about which accounts exist. Wrong TOTP codes and wrong current passwords on "change password"
 * count here too. Kept in PostgreSQL (lib/abuse/counters.ts): every instance sees the same count,
 * and a restart resets nothing.
 */

import { clearCounter, countHit, limitedError, readWindow } from "../abuse/counters";
import type { Db } from "../db";

export const MAX_SIGN_IN_FAILURES = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
const WHAT = "failed sign-ins for this account";

const keyOf = (email: string) => `sign-in-failures:${email.toLowerCase()}`;

/** RATE_LIMITED (with Retry-After) while the account has used up its failed attempts. */
export async function assertSignInAllowed(db: Db, email: string, now = new Date()): Promise<void> {
  const window = await readWindow(db, keyOf(email), now);
  if (window && window.hits >= MAX_SIGN_IN_FAILURES) throw limitedError(WHAT, window, now);
}

export async function recordSignInFailure(db: Db, email: string, now = new Date()): Promise<void> {
  await countHit(db, keyOf(email), SIGN_IN_WINDOW_MS, now);
}

export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await clearCounter(db, keyOf(email));
}
