"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { revokeAllApiKeys } from "../../../accounts/api-keys/manage-api-keys";
import { signOutEverywhereSchema } from "../../../accounts/api-keys/sign-out-everywhere";
import { byMember } from "../../../accounts/audit/audit-origin";
import { renewDashboardSession } from "../../../accounts/auth/renew-session";
import { requirePermission } from "../../../accounts/members/principal";
import { changePassword, changePasswordSchema, signOutEverywhere } from "../../../accounts/users/change-password";
import { credentialsSchema } from "../../../accounts/users/create-user";
import { signUp } from "../../../accounts/users/sign-up";
import {
  confirmEnrolment,
  confirmEnrolmentSchema,
  disableTwoFactor,
  type Enrolment,
  regenerateRecoveryCodes,
  startEnrolment,
  twoFactorCodeSchema,
} from "../../../accounts/users/two-factor";
import { AppError } from "../../../base/errors";
import { ensureStarted } from "../../../ops/startup/startup";
import { limitClient } from "../../http/shared-limits";
import { type ActionResult, runAction, runUserAction } from "../shared/server-action";
import { type AccountSettings, accountSettingsSchema, updateAccountSettings } from "./account-settings";

/** Sign-up from the page: the same rules (and per-address limit) as POST /api/user/register. */
export async function signUpAction(input: { email: string; password: string }): Promise<ActionResult<{ email: string }>> {
  try {
    await ensureStarted();
    await limitClient("register", await headers());
    const parsed = credentialsSchema.safeParse(input);
    if (!parsed.success) {
      // biome-ignore lint/style/noNonNullAssertion: a failed zod parse reports at least one issue
      const issue = parsed.error.issues[0]!;
      return {
        ok: false,
        code: "VALIDATION_ERROR",
        error: issue.message,
        fieldErrors: { [String(issue.path[0] ?? "form")]: issue.message },
      };
    }
    const user = await signUp(parsed.data);
    return { ok: true, data: { email: user.email } };
  } catch (error) {
    if (error instanceof AppError) {
      const field = error.reason === "email-taken" ? "email" : undefined;
      const reason = error.reason ? { reason: error.reason } : {};
      return { ok: false, code: error.code, ...reason, error: error.message, fieldErrors: field ? { [field]: error.message } : undefined };
    }
    return { ok: false, code: "INTERNAL_ERROR", error: "Something went wrong on our side. Try again." };
  }
}

export async function changePasswordAction(input: unknown): Promise<ActionResult> {
  return runUserAction(changePasswordSchema, input, async ({ db, user, address }, data) => {
    await changePassword(db, user.id, data, address);
    return null;
  });
}

/** Ends every session and bearer token of the user, the caller's too (the page then signs out); every API key too when asked. */
export async function signOutEverywhereAction(input: unknown = {}): Promise<ActionResult<{ apiKeysRevoked: number }>> {
  // Revoking API keys acts on the dashboard's account, so it needs the developer permission there.
  return runAction("read", signOutEverywhereSchema, input, async ({ db, ...principal }, { revokeApiKeys }) => {
    if (revokeApiKeys) requirePermission(principal, "developer");
    const apiKeysRevoked = revokeApiKeys ? await revokeAllApiKeys(db, principal.account.id, byMember(principal)) : 0;
    await signOutEverywhere(db, principal.member.id);
    return { apiKeysRevoked };
  });
}

const codeSchema = twoFactorCodeSchema;
const confirmSchema = confirmEnrolmentSchema;

/** Two-factor set-up, step 1: a fresh seed to scan (nothing changes for sign-in yet). */
export async function startTwoFactorAction(): Promise<ActionResult<Enrolment>> {
  return runUserAction(z.object({}), {}, ({ db, user }) => startEnrolment(db, user));
}

/**
 * Step 2: a code of that seed and the current password turn it on; the answer holds the recovery codes, shown this once.
 * Every other session ends (a stolen cookie must not outlive the new factor); this one is renewed.
 */
export async function confirmTwoFactorAction(input: unknown): Promise<ActionResult<{ recoveryCodes: string[] }>> {
  return runUserAction(confirmSchema, input, async ({ db, user, address }, { code, currentPassword }) => {
    const recoveryCodes = await confirmEnrolment(db, user, code, currentPassword, address);
    await renewDashboardSession(db, user.id);
    return { recoveryCodes };
  });
}

/** Turning it off needs a code and ends every other session too; this one is renewed. */
export async function disableTwoFactorAction(input: unknown): Promise<ActionResult> {
  return runUserAction(codeSchema, input, async ({ db, user, address }, { code }) => {
    await disableTwoFactor(db, user, code, address);
    await renewDashboardSession(db, user.id);
    return null;
  });
}

export async function regenerateRecoveryCodesAction(input: unknown): Promise<ActionResult<{ recoveryCodes: string[] }>> {
  return runUserAction(codeSchema, input, async ({ db, user }, { code }) => ({
    recoveryCodes: await regenerateRecoveryCodes(db, user, code),
  }));
}

/** Sets the account's currency (the same rules as PATCH /api/user/settings). */
export async function setAccountCurrencyAction(input: unknown): Promise<ActionResult<{ accountCurrency: string }>> {
  return runAction("settings", accountSettingsSchema, input, async ({ db, ...principal }, data) => {
    const { accountCurrency } = await updateAccountSettings(db, principal, { accountCurrency: data.accountCurrency });
    return { accountCurrency };
  });
}

/** The owner turns "members need two-factor" on or off, with their code (the same rules as PATCH /api/user/settings). */
export async function setMembersNeedTwoFactorAction(input: unknown): Promise<ActionResult<AccountSettings>> {
  const schema = z.object({ membersNeedTwoFactor: z.boolean(), code: z.string().trim().max(32, { error: "code is too long" }).optional() });
  return runAction("members", schema, input, ({ db, ...principal }, data) => updateAccountSettings(db, principal, data));
}
