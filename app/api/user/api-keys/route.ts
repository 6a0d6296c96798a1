import { createApiKeySchema, issueApiKey, listApiKeys } from "@/lib/accounts/api-keys/manage-api-keys";
import { byMember } from "@/lib/accounts/audit/audit-origin";
import { requireSecondFactor } from "@/lib/accounts/users/two-factor";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/api-keys → the user's keys (prefix, kind and scopes; never the key). */
export const GET = withMember("read", async ({ db, account }) => ok(await listApiKeys(db, account.id)));

/**
 * POST /api/user/api-keys {name?, kind?, scopes?, code?} → 201 with `key`, shown this once; `code`
 * (two-factor) when it is on. Default: a secret key with every scope.
 */
export const POST = withMember("developer", async ({ req, db, ...principal }) => {
  const { name, kind, scopes, code } = await readJson(req, createApiKeySchema);
  await requireSecondFactor(db, principal.member, code);
  return ok(await issueApiKey(db, principal.account.id, { name, kind, scopes }, byMember(principal)), 201);
});
