import { listTokens } from "@/lib/domain/tokens/list-tokens";
import { registerToken, toTokenView } from "@/lib/domain/tokens/register-token";
import { registerTokenSchema } from "@/lib/domain/tokens/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/tokens → the user's tokens. */
export const GET = withMember("read", async ({ db, account }) => ok(await listTokens(db, account.id)));

/** POST /api/user/tokens {contractAddress, network} → 201 (200 when it was registered already). */
export const POST = withMember("settings", async ({ req, db, account }) => {
  const input = await readJson(req, registerTokenSchema);
  const { token, created } = await registerToken(db, account.id, input);
  return ok(toTokenView(token), created ? 201 : 200);
});
