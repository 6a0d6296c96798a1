/**
 * The audit log's filters as a query string carries them, shared by `GET /api/user/audit`, the
 * dashboard page and its CSV export: `action` (one of AUDIT_ACTIONS), `actor` (`user:<id>`,
 * `api_key:<id>` or `system`), `from` and `to` (a day `YYYY-MM-DD`, UTC — `to` includes its whole
 * day — or an ISO 8601 instant with its offset). Anything else is a VALIDATION_ERROR naming the field.
 */

import { z } from "zod";
import { cursorParamSchema, pageParamSchema } from "../../base/validation";
import { AUDIT_ACTION_NAMES } from "./actions";
import type { AuditFilters } from "./list-audit";

const empty = (v: unknown) => (v === "" || v === null ? undefined : v);

const DAY = /^(\d{4})-?(\d{2})-?(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A day or an instant, as the Date it starts at (`endOfDay`: a day means up to the next midnight). */
function instantSchema(field: "from" | "to") {
  return z.preprocess(
    empty,
    z
      .string()
      .max(40)
      .transform((text, ctx) => {
        const value = text.trim();
        const day = DAY.exec(value);
        if (day) {
          const iso = `${day[1]}-${day[2]}-${day[3]}`;
          const start = new Date(`${iso}T00:00:00Z`);
          if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== iso) {
            ctx.addIssue({ code: "custom", message: `${field} is not a calendar day` });
            return z.NEVER;
          }
          return { day: iso, at: field === "to" ? new Date(start.getTime() + 86_400_000) : start };
        }
        const at = new Date(value);
        if (!INSTANT.test(value) || Number.isNaN(at.getTime())) {
          ctx.addIssue({ code: "custom", message: `${field} must be a day (YYYY-MM-DD) or an ISO 8601 time with its offset` });
          return z.NEVER;
        }
        return { day: null, at };
      })
      .optional(),
  );
}

const ACTOR = /^(?:(user|api_key):([1-9]\d{0,9})|(system))$/;

const actorSchema = z.preprocess(
  empty,
  z
    .string()
    .transform((text, ctx) => {
      const match = ACTOR.exec(text);
      if (!match || Number(match[2] ?? 0) > 2_147_483_647) {
        ctx.addIssue({ code: "custom", message: "actor must be user:<id>, api_key:<id> or system" });
        return z.NEVER;
      }
      return { text, filter: actorFilter(match) };
    })
    .optional(),
);

function actorFilter(match: RegExpExecArray): Pick<AuditFilters, "actorUserId" | "actorApiKeyId" | "actorKind"> {
  if (match[3]) return { actorKind: "system" };
  const id = Number(match[2]);
  return match[1] === "user" ? { actorUserId: id } : { actorApiKeyId: id };
}

const filterFields = {
  action: z.preprocess(empty, z.enum(AUDIT_ACTION_NAMES, { error: "action is not one the audit log records" }).optional()),
  actor: actorSchema,
  from: instantSchema("from"),
  to: instantSchema("to"),
};

type RawFilters = z.output<z.ZodObject<typeof filterFields>>;

/** The filters as listAudit takes them; a range that ends before it starts is refused. */
function toFilters(raw: RawFilters, ctx: z.RefinementCtx): AuditFilters {
  if (raw.from && raw.to && raw.to.at <= raw.from.at) ctx.addIssue({ code: "custom", path: ["to"], message: "to must be after from" });
  return { action: raw.action, ...raw.actor?.filter, from: raw.from?.at, to: raw.to?.at };
}

/** The query string of `GET /api/user/audit?cursor&limit&action&actor&from&to` as written (the OpenAPI document's). */
export const auditQueryFields = z.object({ ...filterFields, cursor: cursorParamSchema(), limit: pageParamSchema("limit", 50, 100) });

/** That query string as listAudit takes it. */
export const auditQuerySchema = auditQueryFields.transform((raw, ctx) => ({
  ...toFilters(raw, ctx),
  cursor: raw.cursor,
  limit: raw.limit,
}));

/**
 * The dashboard's filters (page and export): the same fields, plus the page's `after`/`before`
 * cursors; `text` is what the form and the links write back (the day as typed, the actor's value).
 */
export const auditFiltersSchema = z.object(filterFields).transform((raw, ctx) => ({
  filters: toFilters(raw, ctx),
  text: {
    action: raw.action,
    actor: raw.actor?.text,
    from: raw.from?.day ?? raw.from?.at.toISOString(),
    to: raw.to?.day ?? raw.to?.at.toISOString(),
  },
}));

export type AuditQuery = z.output<typeof auditQuerySchema>;
