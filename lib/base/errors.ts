/**
 * The one error type of the service. Every code has its HTTP status (docs/design.md §5); route
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
  /** The signed-in member's role in the account does not allow this, or the user is not a member of the account named (docs/design.md §24). */
  FORBIDDEN: 403,
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
    /**
     * The refusal's stable kebab-case key (docs/design.md §22), carried as `error.reason`: what a page
     * maps to its own words. The message is for API clients and logs and may be re-worded.
     */
    readonly reason?: string,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** Makes a module's refusals, each with one of the module's reasons (a string-literal union). */
export type Refusal<R extends string> = (
  code: ErrorCode,
  reason: R,
  message: string,
  details?: ErrorDetail[],
  headers?: Record<string, string>,
) => AppError;

export function refusal<R extends string>(
  code: ErrorCode,
  reason: R,
  message: string,
  details?: ErrorDetail[],
  headers?: Record<string, string>,
): AppError {
  return new AppError(code, message, details, headers, reason);
}

/** Refusals any module may give: a request's own shape, a missing record, too many requests. */
export const COMMON_REASONS = ["invalid-request", "not-found", "rate-limited"] as const;
export type CommonReason = (typeof COMMON_REASONS)[number];
export const commonRefusal: Refusal<CommonReason> = refusal;

export const validationError = (message: string, details?: ErrorDetail[]) =>
  commonRefusal("VALIDATION_ERROR", "invalid-request", message, details);
export const notFound = (what: string) => commonRefusal("NOT_FOUND", "not-found", `${what} not found`);
