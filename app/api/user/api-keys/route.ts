import { createApiKeySchema, issueApiKey, listApiKeys } from "@/lib/api-keys/manage-api-keys";
import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";

/** GET /api/user/api-keys → the user's keys (prefix only, never the key). */
export const GET = withUser(async ({ db, user }) => ok(await listApiKeys(db, user.id)));

/** POST /api/user/api-keys {name?} → 201 with `key`, shown this once. */
export const POST = withUser(async ({ req, db, user }) => {
  const { name } = await readJson(req, createApiKeySchema);
  return ok(await issueApiKey(db, user.id, name), 201);
});
