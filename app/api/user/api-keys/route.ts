import { createApiKeySchema, issueApiKey, listApiKeys } from "@/lib/accounts/api-keys/manage-api-keys";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/api-keys → the account's keys (prefix, kind, scopes, who made each; never the key). */
export const GET = withMember("read", async ({ db, account }) => ok(await listApiKeys(db, account.id)));

/**
 * POST /api/user/api-keys {name?, kind?, scopes?, code?} → 201 with `key`, shown this once. The key
 * is the caller's: at most the scopes their role holds (else 403 `scope-exceeds-role`), a money
 * scope only with their two-factor on (403 `two-factor-required`), `code` whenever it is on.
 */
export const POST = withMember("developer", async ({ req, db, ...principal }) =>
  ok(await issueApiKey(db, principal, await readJson(req, createApiKeySchema)), 201),
);
