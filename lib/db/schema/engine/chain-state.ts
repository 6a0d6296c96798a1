import { bigint, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { timestamptz, updatedAt } from "../columns";

/** Next nonce per sending wallet, allocated under a row lock (SELECT … FOR UPDATE). */
export const walletNonces = pgTable(
  "wallet_nonces",
  {
    network: text("network").notNull(),
    address: text("address").notNull(),
    nextNonce: bigint("next_nonce", { mode: "number" }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.network, t.address] })],
);

/** The last block whose Transfer logs are recorded, per network. */
export const chainCursors = pgTable("chain_cursors", {
  network: text("network").primaryKey(),
  lastScannedBlock: bigint("last_scanned_block", { mode: "bigint" }).notNull(),
  lastScanAt: timestamptz("last_scan_at"),
  lastError: text("last_error"),
  updatedAt: updatedAt(),
});

export type ChainCursor = typeof chainCursors.$inferSelect;
