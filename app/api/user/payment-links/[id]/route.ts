import { deactivatePaymentLink, getPaymentLink, updatePaymentLink } from "@/lib/domain/payment-links/manage-links";
import { updateLinkSchema } from "@/lib/domain/payment-links/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

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
