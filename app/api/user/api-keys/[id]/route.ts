import { revokeApiKey } from "@/lib/api-keys/manage-api-keys";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { parseIntegerId } from "@/lib/http/params";

/** DELETE /api/user/api-keys/:id → revokes the key at once. */
export const DELETE = withUser(async ({ db, user, params }) => ok(await revokeApiKey(db, user.id, parseIntegerId(params.id, "id"))));
