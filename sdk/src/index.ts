export { type BscPayClient, type CallOptions, type ClientOptions, createClient, type MoneyCallOptions } from "./client.js";
export {
  type ApiErrorCode,
  type ApiErrorReason,
  BscPayApiError,
  BscPayError,
  BscPayNetworkError,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from "./errors.js";
export type { components, paths } from "./generated/openapi.js";
export { type Page, Paginator } from "./pagination.js";
export * from "./types.js";
export {
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookDetailed,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
  type WebhookHeaders,
} from "./webhooks.js";
