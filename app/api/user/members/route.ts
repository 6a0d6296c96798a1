import { listMembers } from "@/lib/accounts/members/manage-members";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/members → {items: [{userId, email, role, twoFactor, joinedAt}]}: the account's members. */
export const GET = withMember("read", async ({ db, account }) => ok({ items: await listMembers(db, account.id) }));
