/**
 * Sign-in attempts per account (docs/design.md §18, §21), on top of the per-address limit: a password
 * guessed from many addresses at once still gets MAX_SIGN_IN_FAILURES tries per window. Each
 * attempt is counted BEFORE its password or code is checked, in one atomic upsert, and refused
 * past the maximum: 1,000 concurrent guesses cannot all pass a read before the first failure is
 * written. A full success clears the count, so a script that signs in correctly is never slowed.
 * Unknown emails are counted the same way, so the answer tells nothing about which accounts
 * exist. TOTP codes and current passwords on "change password" count here too. Kept in PostgreSQL
 * (lib/accounts/abuse/counters.ts): every instance sees the same count, and a restart resets nothing.
 */

import type { Db } from "../../db";
import { clearCounter, countHit, limitedError } from "./counters";

export const MAX_SIGN_IN_FAILURES = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
const WHAT = "failed sign-ins for this account";

const keyOf = (email: string) => `sign-in-failures:${email.toLowerCase()}`;

/**
 * Counts one attempt (password or code) of the account before it is checked; RATE_LIMITED (with
 * Retry-After) when the window already holds MAX_SIGN_IN_FAILURES others. Clear the count on success.
 */
export async function countSignInAttempt(db: Db, email: string, now = new Date()): Promise<void> {
  const window = await countHit(db, keyOf(email), SIGN_IN_WINDOW_MS, now);
  if (window.hits > MAX_SIGN_IN_FAILURES) throw limitedError(WHAT, window, now);
}

export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await clearCounter(db, keyOf(email));
}
