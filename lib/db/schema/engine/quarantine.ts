import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "../columns";

/**
 * Logs the scanner could not decode or record, kept raw with the reason (npm run admin --
 * quarantine): the scan moves on, so one hostile or broken log never stalls a network.
 */
export const quarantinedLogs = pgTable(
  "quarantined_logs",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    network: text("network").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash"),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    contractAddress: text("contract_address").notNull(),
    topics: jsonb("topics").notNull(),
    /** The log's data, cut at 16 KB. */
    data: text("data").notNull(),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("quarantined_logs_chain_tx_log_unique").on(t.network, t.txHash, t.logIndex),
    index("quarantined_logs_network_idx").on(t.network, t.createdAt),
  ],
);

export type QuarantinedLog = typeof quarantinedLogs.$inferSelect;
