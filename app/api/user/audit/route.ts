import { auditQuerySchema } from "@/lib/accounts/audit/audit-query";
import { listAudit } from "@/lib/accounts/audit/list-audit";
import { parseWith } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/**
 * GET /api/user/audit?cursor&limit&action&actor&from&to → {items, nextCursor}: the account's audit
 * log, newest first (docs/design.md §24). Owners and admins only (the role check is the wrapper's).
 */
export const GET = withMember("audit", async ({ req, db, account }) => {
  const query = parseWith(auditQuerySchema, Object.fromEntries(req.nextUrl.searchParams));
  return ok(await listAudit(db, account.id, query));
});
