import { listApprovals } from "@/lib/domain/approvals/inbox";
import { approvalsQuerySchema } from "@/lib/domain/approvals/schemas";
import { parseWith } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/approvals?status&cursor → {items, nextCursor}: the account's money-out approvals, newest first. */
export const GET = withMember("read", async ({ req, db, account }) => {
  const query = parseWith(approvalsQuerySchema, Object.fromEntries(req.nextUrl.searchParams));
  return ok(await listApprovals(db, account.id, query));
});
