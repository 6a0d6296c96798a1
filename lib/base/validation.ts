/** Shared request-field schemas: the messages name the field, as every VALIDATION_ERROR does. */

import { z } from "zod";

export const positiveIntSchema = (field: string) =>
  z
    .number({ error: `${field} must be an integer` })
    .int({ error: `${field} must be an integer` })
    .positive({ error: `${field} must be positive` })
    .max(2_147_483_647, { error: `${field} is too large` });

/** A query-string integer (page, limit) with a default and an optional maximum. */
export const pageParamSchema = (field: string, fallback: number, max?: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") return fallback;
      if (!/^[1-9][0-9]{0,6}$/.test(value) || (max !== undefined && Number(value) > max)) {
        ctx.addIssue({ code: "custom", message: `${field} must be an integer from 1${max ? ` to ${max}` : ""}` });
        return z.NEVER;
      }
      return Number(value);
    });

/** A UUID in the form PostgreSQL's uuid type accepts: anything else compared with a uuid column is a database error, not "not found". */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** `cursor` of a history: empty starts from the newest; otherwise a `nextCursor` handed out before (decoded by the list). */
export const cursorParamSchema = () =>
  z.string().max(200, { error: "cursor is not one this service handed out" }).optional().meta({
    description:
      "Page by cursor instead of page number: empty for the first page, then the `nextCursor` of the page before. Given, `page` is ignored and `meta.page` is null. Stable while new rows arrive; combines with the filters.",
  });
