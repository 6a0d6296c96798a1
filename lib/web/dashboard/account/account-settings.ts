/**
 * The account's settings (GET/PATCH /api/user/settings and the Settings page):
 * - `accountCurrency`: what the dashboard's totals, volume chart and payments CSV are shown in
 *   (docs/design.md §23, docs/fiat.md). One of the currencies fiat prices are written in
 *   (lib/domain/pricing/fiat.ts FIAT_MINOR_UNITS); USD until the merchant chooses another. Needs
 *   the `settings` permission.
 * - `membersNeedTwoFactor` (docs/design.md §26): with it on, a member whose role can move money,
 *   approve it, hold the keys or choose where money goes, and who has no two-factor, may only
 *   enrol in this account. The owner's alone (`members`), with their own two-factor on and a
 *   current code either way: turning it off is what a stolen session would do first.
 */

import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { audit, byMember } from "../../../accounts/audit/audit-origin";
import { type Principal, requirePermission } from "../../../accounts/members/principal";
import { twoFactorPolicyCovers } from "../../../accounts/roles/roles";
import { accountRefusal } from "../../../accounts/users/reasons";
import { requireSecondFactor } from "../../../accounts/users/two-factor";
import type { Db } from "../../../db";
import { accountMembers, type MemberRole, users } from "../../../db/schema";
import { FIAT_MINOR_UNITS, isSupportedCurrency } from "../../../domain/pricing/fiat";

/** The currencies an account may choose, in a stable order (USD and EUR first). */
export const ACCOUNT_CURRENCIES: readonly string[] = Object.keys(FIAT_MINOR_UNITS);

export const accountSettingsSchema = z
  .object({
    accountCurrency: z
      .string({ error: "accountCurrency must be a string" })
      .refine(isSupportedCurrency, { error: `accountCurrency must be one of ${ACCOUNT_CURRENCIES.join(", ")}` })
      .optional(),
    /** Owner only: require two-factor of every member who can move money, approve it, hold the keys or choose payout targets. */
    membersNeedTwoFactor: z.boolean({ error: "membersNeedTwoFactor must be true or false" }).optional(),
    /** The owner's current two-factor code, to change membersNeedTwoFactor. */
    code: z.string({ error: "code must be a string" }).max(32, { error: "code is too long" }).optional(),
  })
  .strict()
  .refine((input) => input.accountCurrency !== undefined || input.membersNeedTwoFactor !== undefined, {
    error: "name a setting to change: accountCurrency or membersNeedTwoFactor",
  });

/** A member the two-factor rule covers who has not turned it on (held to enrolling while the rule is on). */
export interface MemberWithoutTwoFactor {
  userId: number;
  email: string;
  role: MemberRole;
}

export interface AccountSettings {
  accountCurrency: string;
  /** What accountCurrency may be. */
  currencies: readonly string[];
  membersNeedTwoFactor: boolean;
  /** The members the rule covers who have no two-factor: while it is on, each may only enrol. */
  membersWithoutTwoFactor: MemberWithoutTwoFactor[];
}

/** The account's currency (USD until chosen): what its reports are in, and what the dashboard prices a payment in. */
export async function accountCurrencyOf(db: Db, accountId: number): Promise<string> {
  const [row] = await db.select({ accountCurrency: users.accountCurrency }).from(users).where(eq(users.id, accountId));
  if (!row) throw accountRefusal("UNAUTHORIZED", "account-gone", "the account no longer exists");
  return row.accountCurrency;
}

export async function getAccountSettings(db: Db, accountId: number): Promise<AccountSettings> {
  const [row] = await db
    .select({ accountCurrency: users.accountCurrency, membersNeedTwoFactor: users.membersNeedTwoFactor })
    .from(users)
    .where(eq(users.id, accountId));
  if (!row) throw accountRefusal("UNAUTHORIZED", "account-gone", "the account no longer exists");
  const unenrolled = await db
    .select({ userId: accountMembers.userId, email: users.email, role: accountMembers.role })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .where(and(eq(accountMembers.accountId, accountId), isNull(users.totpEnabledAt)))
    .orderBy(accountMembers.createdAt, accountMembers.userId);
  return {
    ...row,
    currencies: ACCOUNT_CURRENCIES,
    membersWithoutTwoFactor: unenrolled.filter((m) => twoFactorPolicyCovers(m.role)),
  };
}

/**
 * Changes what the input names (validated by accountSettingsSchema), audited; reports change at
 * once, nothing is rewritten. Each field asks its own permission before anything changes.
 */
export async function updateAccountSettings(
  db: Db,
  principal: Principal,
  input: z.output<typeof accountSettingsSchema>,
): Promise<AccountSettings> {
  const accountId = principal.account.id;
  if (input.accountCurrency !== undefined) requirePermission(principal, "settings");
  const before = await getAccountSettings(db, accountId);
  const ruleChanges = input.membersNeedTwoFactor !== undefined && input.membersNeedTwoFactor !== before.membersNeedTwoFactor;
  if (input.membersNeedTwoFactor !== undefined) requirePermission(principal, "members");
  if (ruleChanges) {
    if (!principal.member.totpEnabledAt)
      throw accountRefusal(
        "FORBIDDEN",
        "two-factor-required",
        "turn on your own two-factor authentication first: the rule is changed only with your code",
        [{ path: "membersNeedTwoFactor", message: "turn on your own two-factor authentication first" }],
      );
    await requireSecondFactor(db, principal.member, input.code);
  }
  await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(users)
      .set({
        ...(input.accountCurrency !== undefined ? { accountCurrency: input.accountCurrency } : {}),
        ...(input.membersNeedTwoFactor !== undefined ? { membersNeedTwoFactor: input.membersNeedTwoFactor } : {}),
        updatedAt: new Date(),
      })
      .where(eq(users.id, accountId))
      .returning({ accountCurrency: users.accountCurrency, membersNeedTwoFactor: users.membersNeedTwoFactor });
    if (!changed) throw accountRefusal("UNAUTHORIZED", "account-gone", "the account no longer exists");
    const target = { type: "account", id: accountId };
    if (changed.accountCurrency !== before.accountCurrency)
      await audit(tx, byMember(principal), {
        action: "account.settings_changed",
        target,
        before: { accountCurrency: before.accountCurrency },
        after: { accountCurrency: changed.accountCurrency },
      });
    if (ruleChanges)
      await audit(tx, byMember(principal), {
        action: "account.settings_changed",
        target,
        before: { membersNeedTwoFactor: before.membersNeedTwoFactor },
        after: {
          membersNeedTwoFactor: changed.membersNeedTwoFactor,
          // Who the rule holds to enrolling from now on, as it was when it was turned on.
          ...(changed.membersNeedTwoFactor ? { membersWithoutTwoFactor: before.membersWithoutTwoFactor.map((m) => m.email) } : {}),
        },
      });
  });
  return getAccountSettings(db, accountId);
}
