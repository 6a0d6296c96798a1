/**
 * The account's currency: what the dashboard's totals, volume chart and payments CSV are shown in
 * (DESIGN.md §23, README "Pricing in fiat"). One of the currencies fiat prices are written in
 * (lib/domain/pricing/fiat.ts FIAT_MINOR_UNITS); USD until the merchant chooses another.
 */

import { eq } from "drizzle-orm";
import { z } from "zod";
import { type AuditOrigin, audit } from "../../accounts/audit/audit-origin";
import { accountRefusal } from "../../accounts/users/reasons";
import type { Db } from "../../db";
import { users } from "../../db/schema";
import { FIAT_MINOR_UNITS, isSupportedCurrency } from "../../domain/pricing/fiat";

/** The currencies an account may choose, in a stable order (USD and EUR first). */
export const ACCOUNT_CURRENCIES: readonly string[] = Object.keys(FIAT_MINOR_UNITS);

export const accountSettingsSchema = z
  .object({
    accountCurrency: z
      .string({ error: "accountCurrency is required" })
      .refine(isSupportedCurrency, { error: `accountCurrency must be one of ${ACCOUNT_CURRENCIES.join(", ")}` }),
  })
  .strict();

export interface AccountSettings {
  accountCurrency: string;
  /** What accountCurrency may be. */
  currencies: readonly string[];
}

export async function getAccountSettings(db: Db, userId: number): Promise<AccountSettings> {
  const [row] = await db.select({ accountCurrency: users.accountCurrency }).from(users).where(eq(users.id, userId));
  if (!row) throw accountRefusal("UNAUTHORIZED", "account-gone", "the account no longer exists");
  return { accountCurrency: row.accountCurrency, currencies: ACCOUNT_CURRENCIES };
}

/** Sets the account's currency (input validated by accountSettingsSchema); reports change at once, nothing is rewritten. */
export async function updateAccountSettings(
  db: Db,
  userId: number,
  input: z.output<typeof accountSettingsSchema>,
  /** Who changed it, for the audit log. */
  by?: AuditOrigin,
): Promise<AccountSettings> {
  const before = await getAccountSettings(db, userId);
  const row = await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(users)
      .set({ accountCurrency: input.accountCurrency, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning({ accountCurrency: users.accountCurrency });
    if (changed && by && changed.accountCurrency !== before.accountCurrency)
      await audit(tx, by, {
        action: "account.settings_changed",
        target: { type: "account", id: userId },
        before: { accountCurrency: before.accountCurrency },
        after: { accountCurrency: changed.accountCurrency },
      });
    return changed;
  });
  if (!row) throw accountRefusal("UNAUTHORIZED", "account-gone", "the account no longer exists");
  return { accountCurrency: row.accountCurrency, currencies: ACCOUNT_CURRENCIES };
}
