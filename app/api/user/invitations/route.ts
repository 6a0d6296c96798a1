import { createInvitation, createInvitationSchema, listInvitations } from "@/lib/accounts/members/invitations";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/invitations → {items}: the account's invitation links (never their secrets), newest first. */
export const GET = withMember("members", async ({ db, account }) => ok({ items: await listInvitations(db, account.id) }));

/** POST /api/user/invitations {role, note?} → 201 with `url` and `token`, shown this once; the link works once, for 72 hours. */
export const POST = withMember("members", async ({ req, db, ...principal }) =>
  ok(await createInvitation(db, principal, await readJson(req, createInvitationSchema)), 201),
);
