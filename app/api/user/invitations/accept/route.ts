import { acceptInvitation, acceptInvitationSchema } from "@/lib/accounts/members/invitations";
import { readJson } from "@/lib/web/http/body";
import { clientAddress } from "@/lib/web/http/client-ip";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/** POST /api/user/invitations/accept {token} → {accountId, role}: the signed-in user joins the account (send X-Account-Id to act in it). */
export const POST = withUser(async ({ req, db, user }) => {
  const { token } = await readJson(req, acceptInvitationSchema);
  return ok(await acceptInvitation(db, user, token, clientAddress(req.headers)));
});
