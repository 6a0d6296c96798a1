/**
 * The secret a refund's claim link carries (docs/design.md §26: links that move money carry a secret,
 * given only to the person who made them; an id alone never authorises). 32 random bytes
 * (256 bits) as base64url, in the link as `/refund/<id>?k=<secret>`; the database keeps only its
 * SHA-256 (refunds.claim_secret_hash), so a copy of the database opens no claim. A new link
 * replaces the hash, which voids the old one.
 */

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { getConfig } from "../../base/config";

const SECRET_BYTES = 32;
/** Longer than any secret this file makes: hashed as an empty one (the same work), never matched. */
const MAX_SECRET_LENGTH = 256;
/** The query parameter of the claim link (and of the claim page's API calls). */
export const CLAIM_SECRET_PARAM = "k";

export interface ClaimSecret {
  /** Goes into the link, once, to the member who made or re-issued it; never stored, logged or listed. */
  secret: string;
  /** SHA-256 of the secret, hex: what the refund's row keeps. */
  hash: string;
}

export function newClaimSecret(): ClaimSecret {
  const secret = randomBytes(SECRET_BYTES).toString("base64url");
  return { secret, hash: hashClaimSecret(secret) };
}

export function hashClaimSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/**
 * Whether `secret` is the one whose hash is stored, compared in constant time. The same work is
 * done whatever is missing (no hash stored, no secret given), so the time says nothing either.
 */
export function claimSecretMatches(storedHash: string | null, secret: string | null | undefined): boolean {
  const given = typeof secret === "string" && secret !== "" && secret.length <= MAX_SECRET_LENGTH ? secret : null;
  const computed = Buffer.from(hashClaimSecret(given ?? ""), "hex");
  // Stored hashes are 64 hex digits (the column's check); without one, zeros of the same length (no input hashes to them).
  const stored = storedHash !== null && /^[0-9a-f]{64}$/.test(storedHash) ? Buffer.from(storedHash, "hex") : Buffer.alloc(computed.length);
  return timingSafeEqual(stored, computed) && given !== null && storedHash !== null;
}

/** The link the payer opens: the page where they give their address. */
export function claimUrl(refundId: string, secret: string): string {
  return `${getConfig().siteUrl}/refund/${refundId}?${CLAIM_SECRET_PARAM}=${secret}`;
}
