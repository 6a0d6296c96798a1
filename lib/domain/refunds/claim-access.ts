/**
 * Who may read or claim a refund as its payer: whoever holds its claim link (docs/design.md §26: an id
 * alone never authorises). A wrong or missing secret is refused exactly as an unknown refund is —
 * NOT_FOUND "refund not found", the same body, the same work (claim-secret.ts compares in constant
 * time) — so no answer says which part was wrong, and every such attempt counts against the
 * client's refund-claim limit (lib/accounts/abuse/limits.ts, shared by every instance).
 *
 * The claim (POST) counts every attempt before anything is checked, as it always did. The reads
 * (the claim page, and its GET while a refund is on its way) count only the refused ones, so a
 * payer following their refund is never limited; but a client over the limit is refused before
 * its secret is looked at, so the last guesses of a window cannot be tried through a read either.
 */

import { eq } from "drizzle-orm";
import { limitedError, readWindow } from "../../accounts/abuse/counters";
import { consumeLimit, SHARED_LIMITS } from "../../accounts/abuse/limits";
import { AppError, commonRefusal } from "../../base/errors";
import { isUuid } from "../../base/validation";
import type { Db } from "../../db";
import { refunds } from "../../db/schema";
import { claimSecretMatches } from "./claim-secret";

/** The one answer for an unknown refund, a wrong secret and a missing one. */
export function refundNotFound(): AppError {
  return commonRefusal("NOT_FOUND", "not-found", "refund not found");
}

/** NOT_FOUND unless `secret` is the claim link's of this refund (a refund without a link has no claim page at all). */
export async function assertClaimSecret(db: Db, refundId: string, secret: string | null | undefined): Promise<void> {
  const [row] = isUuid(refundId)
    ? await db.select({ hash: refunds.claimSecretHash }).from(refunds).where(eq(refunds.id, refundId.toLowerCase()))
    : [];
  if (!claimSecretMatches(row?.hash ?? null, secret)) throw refundNotFound();
}

/**
 * A read of the claim page's data by `client` (a limit key, lib/web/http/client-ip.ts): refused
 * with RATE_LIMITED while the client is over the refund-claim limit, else as assertClaimSecret —
 * a refusal counted against that limit.
 */
export async function assertClaimRead(db: Db, client: string, refundId: string, secret: string | null | undefined, now = new Date()) {
  const limit = SHARED_LIMITS.refundClaim;
  // The key consumeLimit counts under (limits.ts: `<name>:<subject>`).
  const window = await readWindow(db, `refundClaim:${client}`, now);
  if (window && window.hits >= limit.max()) throw limitedError(limit.what, window, now);
  try {
    await assertClaimSecret(db, refundId, secret);
  } catch (error) {
    // Counted; the answer stays NOT_FOUND even when this attempt reaches the limit (the next one is refused first).
    await consumeLimit(db, "refundClaim", client, now).catch((limited: unknown) => {
      if (!(limited instanceof AppError && limited.code === "RATE_LIMITED")) throw limited;
    });
    throw error;
  }
}
