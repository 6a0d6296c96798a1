/**
 * The one error type of the service. Every code has its HTTP status (DESIGN.md §5); route
 * wrappers turn an AppError into the envelope, anything else into INTERNAL_ERROR.
 */

export const ERROR_STATUS = {
  /** Bad JSON, a bad field, an unknown tokenId, a malformed id. */
  VALIDATION_ERROR: 400,
  /** Missing, unknown or revoked API key or bearer token; wrong credentials. */
  UNAUTHORIZED: 401,
  /** No active plan, or its monthly session quota is used up. */
  NO_PACKAGE: 402,
  /** domainId not the user's, Origin not whitelisted, or the user has no domain. */
  DOMAIN_NOT_WHITELISTED: 403,
  /** The record does not exist or belongs to another API key / user (never 403). */
  NOT_FOUND: 404,
  /** The same Idempotency-Key was reused with a different body. */
  IDEMPOTENCY_CONFLICT: 409,
  /** Too many requests for this key (or, outside /api/v1, this client address); Retry-After says when to come back. */
  RATE_LIMITED: 429,
  /** Self sign-up is turned off by the operator (REGISTRATION=closed). */
  REGISTRATION_CLOSED: 403,
  /** RPC unreachable, not enough token or gas balance, a rejected transaction. */
  BLOCKCHAIN_ERROR: 502,
  /** Anything else; the message never carries internals. */
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path?: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const validationError = (message: string, details?: ErrorDetail[]) => new AppError("VALIDATION_ERROR", message, details);
export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);
