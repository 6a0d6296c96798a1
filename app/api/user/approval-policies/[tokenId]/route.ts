import { setApprovalPolicy } from "@/lib/domain/approval-requests/policies";
import { approvalPolicySchema } from "@/lib/domain/approvals/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

/** PUT /api/user/approval-policies/:tokenId {perRequest, perDay, code?} → the token's thresholds (owner; with two-factor on, a code). */
export const PUT = withMember("payout-targets", async ({ req, db, params, ...principal }) => {
  const tokenId = parseIntegerId(params.tokenId, "tokenId");
  const { perRequest, perDay, code } = await readJson(req, approvalPolicySchema);
  return ok(await setApprovalPolicy(db, principal, tokenId, { perRequest, perDay }, code));
});
