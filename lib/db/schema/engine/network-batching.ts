import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz, updatedAt } from "../columns";

/**
 * Whether a network sweeps in batches (EIP-7702), as every process of the service sees it: what
 * the chain said when asked (`eip7702`, for the chain whose fingerprint is `chainKey`: its chain id
 * and RPC endpoints, hashed), and the record lib/engine/forwarding/batched/batch-state.ts decides from
 * (batches the node refused for good, checks it could not answer in a row, a gas tank too poor to
 * pay a batch).
 */
export const networkBatching = pgTable("network_batching", {
  network: text("network").primaryKey(),
  chainKey: text("chain_key"),
  eip7702: text("eip7702", { enum: ["supported", "unsupported"] }),
  refusedBatches: integer("refused_batches").notNull().default(0),
  failedChecks: integer("failed_checks").notNull().default(0),
  lastCheckError: text("last_check_error"),
  tankLowUntil: timestamptz("tank_low_until"),
  updatedAt: updatedAt(),
});

export type NetworkBatchingRow = typeof networkBatching.$inferSelect;
