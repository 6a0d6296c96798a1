import { listTokens } from "@/lib/domain/tokens/list-tokens";
import { registerToken, toTokenView } from "@/lib/domain/tokens/register-token";
import { registerTokenSchema } from "@/lib/domain/tokens/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/** GET /api/user/tokens → the user's tokens. */
export const GET = withUser(async ({ db, user }) => ok(await listTokens(db, user.id)));

/** POST /api/user/tokens {contractAddress, network} → 201 (200 when it was registered already). */
export const POST = withUser(async ({ req, db, user }) => {
  const input = await readJson(req, registerTokenSchema);
  const { token, created } = await registerToken(db, user.id, input);
  return ok(toTokenView(token), created ? 201 : 200);
});
