/**
 * The engine's tables (lib/engine reads and writes these, and asks for anything else through a
 * port or the few reads tests/unit/layering.test.ts still lists): the ledger of signed
 * transactions, nonces and scan cursors, forwards, sweep batches, quarantined logs, network
 * batching and the BNB balance poller's watch list and polls.
 */
export * from "./chain-state";
export * from "./chain-transactions";
export * from "./forwards";
export * from "./gas-charges";
export * from "./native-balances";
export * from "./network-batching";
export * from "./quarantine";
export * from "./sweep-batches";
