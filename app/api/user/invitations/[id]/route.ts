import { revokeInvitation } from "@/lib/accounts/members/invitations";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

/** DELETE /api/user/invitations/:id → the invitation, revoked (one used or revoked already stays as it is). */
export const DELETE = withMember("members", async ({ db, params, ...principal }) =>
  ok(await revokeInvitation(db, principal, parseIntegerId(params.id, "invitationId"))),
);
