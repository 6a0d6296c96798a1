import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { parseIntegerId } from "@/lib/http/params";
import { deactivatePaymentLink, getPaymentLink, updatePaymentLink } from "@/lib/payment-links/manage-links";
import { updateLinkSchema } from "@/lib/payment-links/schemas";

export const GET = withUser(async ({ db, user, params }) => ok(await getPaymentLink(db, user.id, parseIntegerId(params.id, "linkId"))));

/** PATCH /api/user/payment-links/:id {any field of create, active} */
export const PATCH = withUser(async ({ req, db, user, params }) => {
  const linkId = parseIntegerId(params.id, "linkId");
  return ok(await updatePaymentLink(db, user.id, linkId, await readJson(req, updateLinkSchema)));
});

/** DELETE /api/user/payment-links/:id → the link, deactivated (kept: its payments refer to it). */
export const DELETE = withUser(async ({ db, user, params }) =>
  ok(await deactivatePaymentLink(db, user.id, parseIntegerId(params.id, "linkId"))),
);
