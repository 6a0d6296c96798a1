/**
 * Two-factor recovery codes: 10 single-use codes of 50 random bits each. Each is stored as scrypt
 * with its own random salt (`scrypt$N$r$p$salt$key`, the format of password hashes), so a copy of
 * the database gives no code back without ~2^50 memory-hard guesses per code, and two accounts'
 * codes cannot be attacked together. Codes stored before this (a 64-hex SHA-256) keep working
 * until they are used or regenerated: they are compared in constant time too.
 */

import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db";
import { recoveryCodes } from "../../db/schema";

/** Cheaper than a password's (N = 2^15): a sign-in tries up to 10 codes, and each code carries 50 random bits. */
const PARAMS = { N: 1 << 12, r: 8, p: 1, keyLength: 32 };
const LEGACY_SHA256 = /^[0-9a-f]{64}$/;
export const RECOVERY_CODE_SHAPE = /^[a-z2-7]{5}-?[a-z2-7]{5}$/i;

/** What the merchant typed, as it was hashed: case and the dash do not matter. */
function normalise(code: string): string {
  return code.trim().toLowerCase().replace(/-/g, "");
}

function scryptAsync(secret: string, salt: Buffer, keyLength: number, options: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, keyLength, { ...options, maxmem: 256 * options.N * options.r }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashRecoveryCode(code: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(normalise(code), salt, PARAMS.keyLength, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** Whether `code` is the one `stored` was made from (a salted scrypt, or a legacy SHA-256). */
export async function recoveryCodeMatches(code: string, stored: string): Promise<boolean> {
  if (LEGACY_SHA256.test(stored)) {
    const actual = createHash("sha256").update(normalise(code)).digest();
    return timingSafeEqual(actual, Buffer.from(stored, "hex"));
  }
  const [scheme, n, r, p, saltB64, keyB64] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !saltB64 || !keyB64) return false;
  const N = Number(n);
  // Only the parameters this module writes: a tampered row cannot make a check cost seconds.
  if (N > PARAMS.N || Number(r) > PARAMS.r || Number(p) > PARAMS.p) return false;
  const expected = Buffer.from(keyB64, "base64");
  const actual = await scryptAsync(normalise(code), Buffer.from(saltB64, "base64"), expected.length, { N, r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The user's new codes replace every earlier one (inside the caller's transaction). */
export async function storeRecoveryCodes(tx: Db, userId: number, codes: readonly string[]): Promise<void> {
  const hashes = await Promise.all(codes.map(hashRecoveryCode));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

/**
 * Spends `code` if it is one of the user's unused codes: every unused code is checked (a salted
 * hash cannot be looked up), then the match is marked used conditionally, so two requests with
 * the same code cannot both pass.
 */
export async function spendRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  if (!RECOVERY_CODE_SHAPE.test(code.trim())) return false;
  const unused = await db
    .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const matches = await Promise.all(unused.map((row) => recoveryCodeMatches(code, row.codeHash)));
  const match = unused.find((_, i) => matches[i]);
  if (!match) return false;
  const [used] = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.id, match.id), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used !== undefined;
}
