import { integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
