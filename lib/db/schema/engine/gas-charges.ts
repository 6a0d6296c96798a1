import { bigint, index, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { createdAt } from "../columns";
import { users } from "../merchants/users";
import { chainTransactions } from "./chain-transactions";

/**
 * Who a gas-tank transaction was signed for (docs/design.md §18): a top-up for one merchant's deposit
 * address or withdrawal wallet, or a batch shared by the merchants of its entries (`units` of
 * `totalUnits` entries). The BNB itself is read from the ledger row — the value sent plus the fee
 * paid once settled, the most it can cost while pending — so a charge never disagrees with the
 * chain. A replacement carries the charges of the row it replaces.
 */
export const gasCharges = pgTable(
  "gas_charges",
  {
    chainTxId: bigint("chain_tx_id", { mode: "number" })
      .notNull()
      .references(() => chainTransactions.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    units: integer("units").notNull().default(1),
    totalUnits: integer("total_units").notNull().default(1),
    /** Its ledger row's created_at (written with it): the gas page's window of days is read by (user_id, created_at). */
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.chainTxId, t.userId] }),
    index("gas_charges_user_idx").on(t.userId),
    index("gas_charges_user_created_idx").on(t.userId, t.createdAt, t.chainTxId),
  ],
);

export type GasCharge = typeof gasCharges.$inferSelect;
