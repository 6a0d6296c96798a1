/**
 * The whole database schema: the one entry drizzle-kit reads (drizzle.config.ts) and the one module
 * the rest of the code imports tables and row types from (`…/db/schema`). Tables live by area in
 * merchants/, payments/ and engine/ (README.md).
 */
export * from "./abuse-counters";
export * from "./app-state";
export * from "./engine/chain-state";
export * from "./engine/chain-transactions";
export * from "./engine/forwards";
export * from "./engine/gas-charges";
export * from "./engine/native-balances";
export * from "./engine/network-batching";
export * from "./engine/quarantine";
export * from "./engine/sweep-batches";
export * from "./merchants/api-keys";
export * from "./merchants/approvals";
export * from "./merchants/audit-events";
export * from "./merchants/currency-feeds";
export * from "./merchants/domains";
export * from "./merchants/idempotency";
export * from "./merchants/members";
export * from "./merchants/plans";
export * from "./merchants/token-catalogue";
export * from "./merchants/tokens";
export * from "./merchants/users";
export * from "./merchants/webhooks";
export * from "./payments/deposits";
export * from "./payments/history-counts";
export * from "./payments/payment-links";
export * from "./payments/payment-sessions";
export * from "./payments/payout-batches";
export * from "./payments/refunds";
export * from "./payments/session-quotes";
export * from "./payments/withdrawals";
