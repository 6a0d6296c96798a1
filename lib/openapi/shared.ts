/** The pieces every path of the OpenAPI document is described with: the envelope, errors by status, shared parameters. */

import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import type { ApiScope } from "../api-keys/scopes";
import { ERROR_STATUS, type ErrorCode } from "../errors";

export const errorSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.array(z.object({ path: z.string().optional(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: "Error" });

export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
export const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });

export function errors(...codes: ErrorCode[]): ZodOpenApiOperationObject["responses"] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [String(status), { description: list.join(", "), ...json(errorSchema) }]),
  );
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
