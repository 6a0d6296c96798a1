import { listUserAccounts } from "@/lib/accounts/members/manage-members";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/** GET /api/user/accounts → {items: [{accountId, label, role}]}: the accounts the user belongs to, home first (the default without X-Account-Id). */
export const GET = withUser(async ({ db, user }) => ok({ items: await listUserAccounts(db, user.id) }));
