import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "../columns";

export const users = pgTable(
  "users",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    /** Normalised (trimmed, lower case) before it is stored. */
    email: text("email").notNull(),
    /** scrypt hash with its parameters and salt; never returned. */
    passwordHash: text("password_hash").notNull(),
    /**
     * Carried by every bearer token and dashboard session as `ver`; a password change or "sign out
     * everywhere" increments it, and tokens with another version are refused from then on.
     */
    tokenVersion: integer("token_version").notNull().default(0),
    /** Two-factor sign-in (TOTP): the seed, sealed (lib/accounts/users/secret-box.ts); set once enrolment is confirmed. */
    totpSecret: text("totp_secret"),
    /** A seed shown during enrolment, not confirmed by a code yet. */
    totpPendingSecret: text("totp_pending_secret"),
    totpEnabledAt: timestamptz("totp_enabled_at"),
    /** The last 30 s step whose code was accepted: a code works once. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** The currency the dashboard's totals, chart and CSV are shown in (ISO 4217, a key of FIAT_MINOR_UNITS; docs/design.md §23). */
    accountCurrency: text("account_currency").notNull().default("USD"),
    /**
     * On the account's row (docs/design.md §26): every member whose role can move money, approve it,
     * hold the keys or choose where money goes must have two-factor on; one without it may only
     * enrol, in this account (lib/accounts/roles/roles.ts heldForTwoFactor). Set by the owner.
     */
    membersNeedTwoFactor: boolean("members_need_two_factor").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** One-time codes that stand in for the authenticator app (10 per enrolment); only their hashes are kept. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** scrypt of the normalised code with a salt of its own (lib/accounts/users/recovery-codes.ts); older rows: a bare sha256 hex. */
    codeHash: text("code_hash").notNull(),
    usedAt: timestamptz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);
