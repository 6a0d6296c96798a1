/**
 * The payments' tables (lib/domain writes these): payment sessions and their quotes, deposits (the
 * scanner's recorder inserts them; forwarding reads and marks them through the engine's
 * depositBook port), payment links, refunds, withdrawals, payout batches and the history's counters.
 */
export * from "./deposits";
export * from "./history-counts";
export * from "./payment-links";
export * from "./payment-sessions";
export * from "./payout-batches";
export * from "./refunds";
export * from "./session-quotes";
export * from "./withdrawals";
