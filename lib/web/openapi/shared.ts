/** The pieces every path of the OpenAPI document is described with: the envelope, errors by status, shared parameters. */

import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import type { ApiScope } from "../../accounts/api-keys/scopes";
import { PERMISSIONS, type Permission, rolesWith } from "../../accounts/members/roles";
import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from "../../base/errors";
import { EX } from "./examples";
import { ALL_REASONS, type Reason } from "./reasons";

const REASON_DESCRIPTION =
  "Why it was refused, as a stable kebab-case key (like Stripe's decline_code), present on refusals a person reads: map it to your own words. `code` and the HTTP status say the kind of failure; `message` is English for developers and may be re-worded.";

/** The error envelope; `reasons`: the enum of `error.reason` (all of them for the shared "Error" schema). */
function errorEnvelope(reasons: readonly string[]) {
  return z.object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      reason: z
        .enum(reasons as [string, ...string[]])
        .optional()
        .meta({ description: REASON_DESCRIPTION }),
      details: z.array(z.object({ path: z.string().optional(), message: z.string() })).optional(),
    }),
  });
}

export const errorSchema = errorEnvelope(ALL_REASONS).meta({ id: "Error" });

export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/**
 * A JSON body or answer. `examples`: name → value, each shown as a named example of the media type
 * (tests/unit/openapi-operations.test.ts parses every one with `schema`).
 */
export function json(schema: z.ZodType, examples?: Record<string, unknown>) {
  return {
    content: {
      "application/json": {
        schema,
        ...(examples ? { examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])) } : {}),
      },
    },
  };
}

/** A success answer: `{success: true, data}` with `data` described by `schema` and shown by `example`. */
export function answer(description: string, schema: z.ZodType, example: unknown) {
  return { description, ...json(envelope(schema), { ok: { success: true, data: example } }) };
}

/** `data` of an answer without a response schema yet: its shape is in the words and the example. */
export const described = (what: string) => z.unknown().meta({ description: what });

/** What a refusal looks like in the examples: its message, reason and details. */
export interface Problem {
  message: string;
  reason?: Reason;
  details?: ErrorDetail[];
}

const AMOUNT_MESSAGE = 'amount must be a positive decimal string such as "10.5" (digits and one dot; no sign, exponent, spaces or commas)';

/** The example refusal of each code, unless an operation gives its own (a bad path id, say). */
const PROBLEMS: Record<ErrorCode, Problem> = {
  VALIDATION_ERROR: {
    message: `amount: ${AMOUNT_MESSAGE}`,
    reason: "invalid-request",
    details: [{ path: "amount", message: AMOUNT_MESSAGE }],
  },
  UNAUTHORIZED: { message: "x-api-key header is required", reason: "api-key-missing" },
  NO_PACKAGE: { message: "no active plan: choose one (POST /api/user/package) before creating payments", reason: "no-plan" },
  DOMAIN_NOT_WHITELISTED: { message: `origin ${EX.shop} is not a whitelisted domain`, reason: "origin-not-whitelisted" },
  FORBIDDEN: {
    message:
      "the account requires two-factor authentication of the member who made this key, and they have not turned it on: their keys work again once they do",
    reason: "two-factor-required-by-account",
  },
  NOT_FOUND: { message: "not found", reason: "not-found" },
  IDEMPOTENCY_CONFLICT: {
    message: "this Idempotency-Key was already used with a different request body",
    reason: "idempotency-key-reused",
  },
  RATE_LIMITED: { message: "too many requests for this API key; retry in 12 s", reason: "rate-limited" },
  REGISTRATION_CLOSED: { message: "sign-up is closed on this gateway; ask its operator for an account", reason: "registration-closed" },
  BLOCKCHAIN_ERROR: { message: `not enough BNB for gas in the withdrawal wallet ${EX.withdrawalWallet}`, reason: "wallet-short-of-gas" },
  INTERNAL_ERROR: { message: "internal error" },
};

/** The refusals of /api/user: a bearer token, and limits per client address. */
const USER_PROBLEMS: Partial<Record<ErrorCode, Problem>> = {
  UNAUTHORIZED: { message: "bearer token is missing, invalid or expired", reason: "bearer-token-invalid" },
  RATE_LIMITED: { message: "too many requests from this address; retry in 30 s", reason: "rate-limited" },
};

export type Problems = Partial<Record<ErrorCode, Problem>>;

/** An /api/user operation's error answers (error.reason: any reason). */
export function errors(codes: ErrorCode[], problems: Problems = {}): ZodOpenApiOperationObject["responses"] {
  return errorResponses(errorSchema, ALL_REASONS, codes, { ...USER_PROBLEMS, ...problems });
}

/** Error answers with the reasons this operation may answer with as the enum of `error.reason`. */
export function refusals(reasons: readonly Reason[], codes: ErrorCode[], problems: Problems = {}): ZodOpenApiOperationObject["responses"] {
  const own = [...new Set(reasons)];
  return errorResponses(errorEnvelope(own), own, codes, problems);
}

function errorResponses(
  schema: z.ZodType,
  reasons: readonly Reason[],
  codes: ErrorCode[],
  problems: Problems,
): ZodOpenApiOperationObject["responses"] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: list.join(", "),
        ...json(schema, Object.fromEntries(list.map((code) => [code, problemExample(code, reasons, problems)]))),
      },
    ]),
  );
}

/** The example envelope of one code; a reason the operation does not list is left out (it is optional). */
function problemExample(code: ErrorCode, reasons: readonly Reason[], problems: Problems) {
  const { message, reason, details } = problems[code] ?? PROBLEMS[code];
  const listed = reason !== undefined && reasons.includes(reason);
  return { success: false, error: { code, message, ...(listed ? { reason } : {}), ...(details ? { details } : {}) } };
}

/** A refusal of a malformed id in the path. */
export const badId = (name: string, kind = "a UUID"): Problems => ({
  VALIDATION_ERROR: { message: `${name} must be ${kind}`, reason: "invalid-request" },
});

/** A refusal of a malformed query parameter. */
export const badLimit: Problems = {
  VALIDATION_ERROR: {
    message: "limit: limit must be an integer from 1 to 100",
    reason: "invalid-request",
    details: [{ path: "limit", message: "limit must be an integer from 1 to 100" }],
  },
};

const uuidParam = (name: string, what: string, example: string) =>
  z.object({ [name]: z.string().meta({ description: `UUID of the ${what}.`, example }) });

export const sessionIdParam = { path: uuidParam("sessionId", "session", EX.sessionId) };
export const withdrawalIdParam = { path: uuidParam("withdrawalId", "withdrawal", EX.withdrawalId) };
export const refundIdParam = { path: uuidParam("refundId", "refund", EX.refundId) };
export const batchIdParam = { path: uuidParam("batchId", "payout batch", EX.batchId) };
/** `{id}` of the /api/user routes: a numeric id. */
export const idParam = (what: string, example = 3) => ({
  path: z.object({ id: z.string().meta({ description: `Id of the ${what}.`, example: String(example) }) }),
});

export const idempotencyHeader = {
  header: z.object({
    "idempotency-key": z
      .string()
      .optional()
      .meta({ description: "Same key and body within 24 h → the first response again.", example: "order-10042-attempt-1" }),
  }),
};
/**
 * An /api/v1 operation: the scope its key must hold (OpenAPI 3.1 lets an apiKey requirement list
 * role names), and whether a browser may call it (`x-cors`: payment routes with a publishable key only).
 */
export const v1Scope = (scope: ApiScope) => ({
  security: [{ apiKey: [scope] }],
  "x-cors": scope === "payments:write" || scope === "payments:read",
});
/** An /api/user operation about the signed-in user themself (withUser): a bearer token (or the dashboard's session cookie), in no account. */
export const user = { security: [{ bearer: [] }] };

/**
 * `X-Account-Id`, once, as components.parameters.AccountId (lib/web/http/account-choice.ts): the
 * account a member acts in; the membership is checked on every request.
 */
const accountIdHeader = z
  .string()
  .optional()
  .meta({
    description:
      "The id of the account to act in (GET /api/user/accounts lists yours). Without it: the account chosen in the dashboard's switcher (a cookie) for dashboard requests, else your default account — your own while you are a member of it, else the one you joined first. Not a positive integer → 400 (reason account-id-invalid); an account you are not a member of, whether or not it exists → 403 (reason not-a-member).",
    example: "7",
    param: { in: "header", name: "X-Account-Id", id: "AccountId" },
  });

/**
 * An /api/user operation acting in an account (withMember): a bearer token, the X-Account-Id
 * header, and the permission the member's role must hold (`x-permission`, lib/accounts/members/roles.ts).
 */
export const member = (permission: Permission) => ({
  security: [{ bearer: [] }],
  parameters: [accountIdHeader],
  "x-permission": permission,
});

/** What every /api/user operation with a token may be refused for: the token (or the session cookie). */
const USER_ACCESS: readonly Reason[] = ["bearer-token-invalid", "sign-in-required", "cross-site-refused", "account-gone", "token-revoked"];
/** What every member operation may be refused for before its own work: the token, the account, the role. */
const MEMBER_ACCESS: readonly Reason[] = [
  ...USER_ACCESS,
  "account-id-invalid",
  "not-a-member",
  "no-account",
  "role-forbids",
  "two-factor-required-by-account",
];

function memberProblems(permission: Permission): Problems {
  const roles = rolesWith(permission);
  return {
    ...USER_PROBLEMS,
    VALIDATION_ERROR: {
      message: "X-Account-Id must be an account's id (a positive integer)",
      reason: "account-id-invalid",
      details: [{ path: "X-Account-Id", message: "must be a positive integer" }],
    },
    // Every role may read: then the only refusal left is an account the user is not a member of.
    FORBIDDEN: roles.includes("viewer")
      ? { message: "you are not a member of account 12", reason: "not-a-member" }
      : { message: `your role (viewer) cannot ${PERMISSIONS[permission]}; it needs ${roles.join(" or ")}`, reason: "role-forbids" },
  };
}

const withAccess = (codes: ErrorCode[]): ErrorCode[] => [
  ...new Set<ErrorCode>(["VALIDATION_ERROR", "UNAUTHORIZED", "FORBIDDEN", ...codes]),
];

/** A member operation's error answers (error.reason: any reason), with the account and role refusals. */
export function memberErrors(permission: Permission, codes: ErrorCode[], problems: Problems = {}): ZodOpenApiOperationObject["responses"] {
  return errors(withAccess(codes), { ...memberProblems(permission), ...problems });
}

/** A member operation's error answers with the reasons it may answer with as the enum of `error.reason`. */
export function memberRefusals(
  permission: Permission,
  reasons: readonly Reason[],
  codes: ErrorCode[],
  problems: Problems = {},
): ZodOpenApiOperationObject["responses"] {
  return refusals([...MEMBER_ACCESS, ...reasons], withAccess(codes), { ...memberProblems(permission), ...problems });
}

/** A withUser operation's error answers with its own reasons (the bearer token's, then `reasons`). */
export function userRefusals(
  reasons: readonly Reason[],
  codes: ErrorCode[],
  problems: Problems = {},
): ZodOpenApiOperationObject["responses"] {
  return refusals([...USER_ACCESS, ...reasons], codes, { ...USER_PROBLEMS, ...problems });
}
/** No authentication (declared, so a reader and the linter know it is on purpose). */
export const open = { security: [] };
/** What any /api/v1 call may answer besides its own refusals; FORBIDDEN: the key's maker is held to enrolling in two-factor. */
export const V1_ERRORS = ["UNAUTHORIZED", "FORBIDDEN", "RATE_LIMITED", "INTERNAL_ERROR"] as const satisfies ErrorCode[];
