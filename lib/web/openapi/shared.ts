/** The pieces every path of the OpenAPI document is described with: the envelope, errors by status, shared parameters. */

import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import type { ApiScope } from "../../accounts/api-keys/scopes";
import { ERROR_STATUS, type ErrorCode } from "../../base/errors";
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
export const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });

export function errors(...codes: ErrorCode[]): ZodOpenApiOperationObject["responses"] {
  return errorResponses(errorSchema, codes);
}

/** `errors`, with the reasons this operation may answer with as the enum of `error.reason`. */
export function refusals(reasons: readonly Reason[], ...codes: ErrorCode[]): ZodOpenApiOperationObject["responses"] {
  return errorResponses(errorEnvelope([...new Set(reasons)]), codes);
}

function errorResponses(schema: z.ZodType, codes: ErrorCode[]): ZodOpenApiOperationObject["responses"] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries([...byStatus].map(([status, list]) => [String(status), { description: list.join(", "), ...json(schema) }]));
}

export const sessionIdParam = { path: z.object({ sessionId: z.string().meta({ description: "UUID of the session." }) }) };
export const idempotencyHeader = {
  header: z.object({
    "idempotency-key": z.string().optional().meta({ description: "Same key and body within 24 h → the first response again." }),
  }),
};
export const v1 = { security: [{ apiKey: [] }] };
/**
 * An /api/v1 operation: the scope its key must hold (OpenAPI 3.1 lets an apiKey requirement list
 * role names), and whether a browser may call it (`x-cors`: payment routes with a publishable key only).
 */
export const v1Scope = (scope: ApiScope) => ({
  security: [{ apiKey: [scope] }],
  "x-cors": scope === "payments:write" || scope === "payments:read",
});
export const user = { security: [{ bearer: [] }] };
export const V1_ERRORS = ["UNAUTHORIZED", "RATE_LIMITED", "INTERNAL_ERROR"] as const;
