import { approve } from "@/lib/domain/approvals/decide";
import { approveSchema } from "@/lib/domain/approvals/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/**
 * POST /api/user/approvals/:id/approve {code, contentHash?} → {approval, subject}: a second member
 * approves with a two-factor code (exactly the content whose hash they send); the money goes out.
 */
export const POST = withMember("approve", async ({ req, db, params, ...principal }) => {
  const { code, contentHash } = await readJson(req, approveSchema);
  return ok(await approve(db, principal, params.id ?? "", code, new Date(), contentHash));
});
