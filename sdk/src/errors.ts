import type { components } from "./generated/openapi.js";

/** The `code` of an API refusal (docs/design.md §5), as the OpenAPI document lists them. */
export type ApiErrorCode = components["schemas"]["Error"]["error"]["code"];
/** Why a request was refused, a stable kebab-case key; map it to your own words. */
export type ApiErrorReason = NonNullable<components["schemas"]["Error"]["error"]["reason"]>;

/** Every error this SDK throws is one of these; `instanceof BscPayError` catches them all. */
export class BscPayError extends Error {
  override name = "BscPayError";
}

/**
 * The API answered with its error envelope (or with something that was not our envelope at all:
 * `code` "UNEXPECTED_RESPONSE", e.g. a proxy's HTML page).
 */
export class BscPayApiError extends BscPayError {
  override name = "BscPayApiError";
  readonly status: number;
  readonly code: ApiErrorCode | "UNEXPECTED_RESPONSE";
  readonly reason: ApiErrorReason | undefined;
  readonly details: { path?: string; message: string }[] | undefined;
  /** Seconds the API asked to wait (Retry-After of a 429), when it said. */
  readonly retryAfterSeconds: number | undefined;
  /** The Idempotency-Key this call was sent with: send the same call again with it, never twice without it. */
  readonly idempotencyKey: string | undefined;

  constructor(init: {
    status: number;
    code: ApiErrorCode | "UNEXPECTED_RESPONSE";
    message: string;
    reason?: ApiErrorReason | undefined;
    details?: { path?: string; message: string }[] | undefined;
    retryAfterSeconds?: number | undefined;
    idempotencyKey?: string | undefined;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.reason = init.reason;
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.idempotencyKey = init.idempotencyKey;
  }
}

/**
 * No answer arrived (connection refused or reset, DNS, timeout). A call that is not idempotent is
 * never retried after one: the API may have acted on it. `idempotencyKey` lets you retry safely.
 */
export class BscPayNetworkError extends BscPayError {
  override name = "BscPayNetworkError";
  readonly idempotencyKey: string | undefined;
  readonly timedOut: boolean;

  constructor(message: string, init: { cause?: unknown; idempotencyKey?: string | undefined; timedOut?: boolean } = {}) {
    super(message, { cause: init.cause });
    this.idempotencyKey = init.idempotencyKey;
    this.timedOut = init.timedOut ?? false;
  }
}

export type WebhookVerificationReason =
  | "secret-invalid"
  | "headers-missing"
  | "timestamp-invalid"
  | "timestamp-too-old"
  | "timestamp-too-new"
  | "signature-mismatch"
  | "body-invalid";

/** A webhook that must not be trusted: answer it with a 400 and do nothing else. */
export class WebhookVerificationError extends BscPayError {
  override name = "WebhookVerificationError";
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
