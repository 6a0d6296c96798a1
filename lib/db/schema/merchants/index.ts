/**
 * The merchants' tables (lib/accounts and lib/domain read and write these): accounts and members,
 * API keys, audit events, approvals, what a merchant sets up (domains, plans, its tokens and the
 * operator's token catalogue, currency feeds, webhooks) and idempotency records. The engine reads
 * none of them: it asks through its ports (README.md).
 */
export * from "./api-keys";
export * from "./approvals";
export * from "./audit-events";
export * from "./currency-feeds";
export * from "./domains";
export * from "./idempotency";
export * from "./members";
export * from "./plans";
export * from "./token-catalogue";
export * from "./tokens";
export * from "./users";
export * from "./webhooks";
