import { createApiKeySchema, issueApiKey, listApiKeys } from "@/lib/accounts/api-keys/manage-api-keys";
import { requireSecondFactor } from "@/lib/accounts/users/two-factor";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/** GET /api/user/api-keys → the user's keys (prefix, kind and scopes; never the key). */
export const GET = withUser(async ({ db, user }) => ok(await listApiKeys(db, user.id)));

/**
 * POST /api/user/api-keys {name?, kind?, scopes?, code?} → 201 with `key`, shown this once; `code`
 * (two-factor) when it is on. Default: a secret key with every scope.
 */
export const POST = withUser(async ({ req, db, user }) => {
  const { name, kind, scopes, code } = await readJson(req, createApiKeySchema);
  await requireSecondFactor(db, user, code);
  return ok(await issueApiKey(db, user.id, { name, kind, scopes }), 201);
});
