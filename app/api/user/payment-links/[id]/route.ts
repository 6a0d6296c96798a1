import { deactivatePaymentLink, getPaymentLink, updatePaymentLink } from "@/lib/domain/payment-links/manage-links";
import { updateLinkSchema } from "@/lib/domain/payment-links/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

export const GET = withMember("read", async ({ db, account, params }) =>
  ok(await getPaymentLink(db, account.id, parseIntegerId(params.id, "linkId"))),
);

/** PATCH /api/user/payment-links/:id {any field of create, active} */
export const PATCH = withMember("payments", async ({ req, db, params, ...principal }) => {
  const linkId = parseIntegerId(params.id, "linkId");
  return ok(await updatePaymentLink(db, principal, linkId, await readJson(req, updateLinkSchema)));
});

/** DELETE /api/user/payment-links/:id → the link, deactivated (kept: its payments refer to it). */
export const DELETE = withMember("payments", async ({ db, account, params }) =>
  ok(await deactivatePaymentLink(db, account.id, parseIntegerId(params.id, "linkId"))),
);
