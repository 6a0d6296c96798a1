/**
 * Optional two-factor sign-in with an authenticator app (docs/design.md §18). Enrolment shows a seed
 * (QR code and text) and turns on only once a code from it and the account's password are entered;
 * it hands out 10 recovery codes, each usable once instead of the app. With it on, sign-in (dashboard and bearer token),
 * dashboard withdrawals, refunds, API-key creation and every change of where money or events go
 * (payout address, a link's domain, webhook URL and secret) ask for a current code. Turning it on
 * or off ends every other session. Wrong codes count as failed
 * sign-ins of the account (sign-in-throttle.ts): 10 in 15 minutes and it waits.
 */

import { randomBytes } from "node:crypto";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import QRCode from "qrcode";
import { z } from "zod";
import type { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { recoveryCodes, type User, users } from "../../db/schema";
import { clearSignInFailures, countSignInAttempt } from "../abuse/sign-in-throttle";
import { auditInEveryAccount } from "../audit/audit-origin";
import { verifyCurrentPassword } from "./change-password";
import { type AccountReason, accountRefusal } from "./reasons";
import { spendRecoveryCode, storeRecoveryCodes } from "./recovery-codes";
import { seal, unseal } from "./secret-box";
import { matchTotp, newTotpSecret, otpauthUri, toBase32 } from "./totp";

const SEED = "totp-seed";

/** A code of the authenticator app (or, where allowed, a recovery code). */
export const twoFactorCodeSchema = z.object({
  code: z.string({ error: "enter the code" }).trim().min(1, { error: "enter the code" }).max(32, { error: "code is too long" }),
});

/** Turning it on: a code of the seed shown, and the current password (a stolen session alone must not). */
export const confirmEnrolmentSchema = twoFactorCodeSchema.extend({
  currentPassword: z.string({ error: "enter your current password" }).min(1, { error: "enter your current password" }),
});
export const RECOVERY_CODES = 10;

export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(db: Db, user: User): Promise<TwoFactorStatus> {
  const left = user.totpEnabledAt
    ? await db
        .select({ id: recoveryCodes.id })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)))
    : [];
  return { enabled: user.totpEnabledAt !== null, enabledAt: user.totpEnabledAt?.toISOString() ?? null, recoveryCodesLeft: left.length };
}

export interface Enrolment {
  secret: string;
  uri: string;
  /** The URI as a QR code (PNG data URL). */
  qrCode: string;
}

/** A fresh seed to scan; nothing changes for sign-in until confirmEnrolment. */
export async function startEnrolment(db: Db, user: User): Promise<Enrolment> {
  if (user.totpEnabledAt)
    throw accountRefusal(
      "VALIDATION_ERROR",
      "two-factor-already-on",
      "two-factor authentication is already on; turn it off first to use another app",
    );
  const secret = newTotpSecret();
  await db
    .update(users)
    .set({ totpPendingSecret: seal(secret, SEED), updatedAt: new Date() })
    .where(eq(users.id, user.id));
  const uri = otpauthUri(secret, user.email);
  return { secret, uri, qrCode: await QRCode.toDataURL(uri, { margin: 1, width: 220 }) };
}

/**
 * Turns it on with a code of the pending seed and the account's password; answers the recovery
 * codes, shown this once. The password because turning it on ends every other session: a stolen
 * session alone must not lock the owner out behind the thief's authenticator.
 */
export async function confirmEnrolment(
  db: Db,
  user: User,
  code: string,
  currentPassword: string,
  address: string | null = null,
): Promise<string[]> {
  if (user.totpEnabledAt) throw accountRefusal("VALIDATION_ERROR", "two-factor-already-on", "two-factor authentication is already on");
  await verifyCurrentPassword(db, user, currentPassword);
  const secret = user.totpPendingSecret ? unseal(user.totpPendingSecret, SEED) : null;
  if (!secret) throw accountRefusal("VALIDATION_ERROR", "two-factor-setup-expired", "start the set-up again: no code is expected now");
  const step = matchTotp(secret, code, null);
  if (step === null)
    throw codeError("two-factor-code-wrong", "the code does not match; check the time on your phone and enter the current code");
  return db.transaction(async (tx) => {
    const [enabled] = await tx
      .update(users)
      .set({
        totpSecret: seal(secret, SEED),
        totpPendingSecret: null,
        totpEnabledAt: new Date(),
        totpLastStep: step,
        // Every other session and bearer token ends (one stolen before must not outlive the new
        // factor); the dashboard action renews the caller's own cookie.
        tokenVersion: sql`${users.tokenVersion} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, user.id), isNull(users.totpEnabledAt)))
      .returning({ id: users.id });
    if (!enabled) throw accountRefusal("VALIDATION_ERROR", "two-factor-already-on", "two-factor authentication is already on");
    await auditInEveryAccount(tx, user, address, "two_factor.enabled");
    return replaceRecoveryCodes(tx, user.id);
  });
}

/** Turns it off; needs a current code or a recovery code. Every other session ends too (docs/design.md §21). */
export async function disableTwoFactor(db: Db, user: User, code: string, address: string | null = null): Promise<void> {
  await verifySecondFactor(db, user, code, { allowRecoveryCode: true });
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        totpSecret: null,
        totpPendingSecret: null,
        totpEnabledAt: null,
        totpLastStep: null,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, user.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await auditInEveryAccount(tx, user, address, "two_factor.disabled");
  });
}

/** New recovery codes (the old ones stop working); needs a current code. */
export async function regenerateRecoveryCodes(db: Db, user: User, code: string): Promise<string[]> {
  await verifySecondFactor(db, user, code, { allowRecoveryCode: false });
  return db.transaction((tx) => replaceRecoveryCodes(tx, user.id));
}

/**
 * For an action of a signed-in user (dashboard withdrawal, API-key creation): nothing to do when
 * two-factor is off; else a current code, or VALIDATION_ERROR on the field `code`. `user` is always
 * the member acting (a principal's `member`), never the account's own row (docs/design.md §26).
 */
export async function requireSecondFactor(db: Db, user: User, code: string | undefined): Promise<void> {
  if (!user.totpEnabledAt) return;
  if (!code)
    throw codeError("two-factor-code-required", "enter the current code from your authenticator app: two-factor authentication is on");
  await verifySecondFactor(db, user, code, { allowRecoveryCode: false });
}

/**
 * A current code (each works once) or, where allowed, an unused recovery code. A wrong one is a
 * failed sign-in of the account.
 */
export async function verifySecondFactor(
  db: Db,
  user: User,
  code: string,
  options: { allowRecoveryCode: boolean /** Sign-in: its password check counted this attempt already. */; attemptCounted?: boolean },
): Promise<"totp" | "recovery-code"> {
  if (!user.totpEnabledAt)
    throw accountRefusal("VALIDATION_ERROR", "two-factor-not-on", "two-factor authentication is not on for this account");
  // Counted before the check: concurrent guesses cannot all pass while no failure is written yet.
  if (!options.attemptCounted) await countSignInAttempt(db, user.email);
  // Unreadable after NEXTAUTH_SECRET changed: only a recovery code can sign in then.
  const secret = user.totpSecret ? unseal(user.totpSecret, SEED) : null;
  const step = secret ? matchTotp(secret, code, user.totpLastStep) : null;
  if (step !== null) {
    // Conditional: two requests with the same code cannot both pass.
    const [taken] = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    if (taken) {
      await clearSignInFailures(db, user.email);
      return "totp";
    }
  }
  if (options.allowRecoveryCode && (await spendRecoveryCode(db, user.id, code))) {
    await clearSignInFailures(db, user.email);
    return "recovery-code";
  }
  throw codeError(
    "two-factor-code-wrong",
    options.allowRecoveryCode
      ? "that code is not right (or was used already): enter the current code from your app, or an unused recovery code"
      : "that code is not right (or was used already): enter the current code from your app",
  );
}

async function replaceRecoveryCodes(tx: Db, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = toBase32(randomBytes(7)).slice(0, 10).toLowerCase();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await storeRecoveryCodes(tx, userId, codes);
  return codes;
}

function codeError(reason: AccountReason, message: string): AppError {
  return accountRefusal("VALIDATION_ERROR", reason, message, [{ path: "code", message }]);
}
