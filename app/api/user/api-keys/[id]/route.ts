import { revokeApiKey } from "@/lib/accounts/api-keys/manage-api-keys";
import { byMember } from "@/lib/accounts/audit/audit-origin";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

/** DELETE /api/user/api-keys/:id → revokes the key at once. */
export const DELETE = withMember("developer", async ({ db, params, ...principal }) =>
  ok(await revokeApiKey(db, principal.account.id, parseIntegerId(params.id, "id"), byMember(principal))),
);
