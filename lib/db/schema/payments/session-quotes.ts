import { boolean, integer, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";
import { amount, timestamptz } from "../columns";
import { tokens } from "../merchants/tokens";
import { paymentSessions } from "./payment-sessions";

/**
 * The quotes a fiat-priced session locked at creation (docs/design.md §23): per offered token, the exact
 * amount that pays the price, at which rate, from which feed, until when. Written with the session
 * (insert-session.ts), never changed.
 */
export const sessionQuotes = pgTable(
  "session_quotes",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => paymentSessions.id, { onDelete: "cascade" }),
    tokenId: integer("token_id")
      .notNull()
      .references(() => tokens.id),
    /** The order the tokens are offered in (the request's `tokens`, else token id order). */
    position: smallint("position").notNull(),
    amount: amount("amount").notNull(),
    /** Fiat per whole token, 8 decimals (lib/domain/pricing). */
    rate: text("rate").notNull(),
    /** `chainlink:<feed>[/<currency feed>]`. */
    source: text("source").notNull(),
    /** A USD stablecoin priced at its feed's rate (0.5–3 % off its peg): the payer is told. */
    offPeg: boolean("off_peg").notNull().default(false),
    quotedAt: timestamptz("quoted_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.tokenId] })],
);

export type SessionQuote = typeof sessionQuotes.$inferSelect;
