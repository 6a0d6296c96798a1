import { reject } from "@/lib/domain/approvals/decide";
import { rejectSchema } from "@/lib/domain/approvals/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** POST /api/user/approvals/:id/reject {reason?} → {approval, subject}: rejected, never sent (the requester may withdraw their own). */
export const POST = withMember("approve", async ({ req, db, params, ...principal }) => {
  const { reason } = await readJson(req, rejectSchema);
  return ok(await reject(db, principal, params.id ?? "", reason));
});
