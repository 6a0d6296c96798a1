import { getApprovalPolicies } from "@/lib/domain/approval-requests/policies";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/approval-policies → {items: [{tokenId, token, network, perRequest, perDay, updatedAt}]}: every token's thresholds. */
export const GET = withMember("read", async ({ db, account }) => ok({ items: await getApprovalPolicies(db, account.id) }));
