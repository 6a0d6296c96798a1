import { index, integer, pgTable, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "../columns";
import { users } from "./users";

/** A BEP-20 contract a merchant accepts, on one network. */
export const tokens = pgTable(
  "tokens",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    network: text("network").notNull(),
    /** EIP-55 checksummed. */
    contractAddress: text("contract_address").notNull(),
    symbol: text("symbol").notNull(),
    name: text("name").notNull(),
    decimals: smallint("decimals").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("tokens_user_contract_unique").on(t.userId, t.network, t.contractAddress),
    // The scanner asks for the distinct contracts of a network.
    index("tokens_network_contract_idx").on(t.network, t.contractAddress),
  ],
);

export type Token = typeof tokens.$inferSelect;
