import { createPaymentLink, listPaymentLinks } from "@/lib/domain/payment-links/manage-links";
import { createLinkSchema } from "@/lib/domain/payment-links/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/** GET /api/user/payment-links → the user's links, newest first, with their figures. */
export const GET = withUser(async ({ db, user }) => ok({ items: await listPaymentLinks(db, user.id) }));

/** POST /api/user/payment-links {title, tokenId, amount | minAmount, description?, domainId?, redirectUrl?, active?} → 201 */
export const POST = withUser(async ({ req, db, user }) =>
  ok(await createPaymentLink(db, user.id, await readJson(req, createLinkSchema)), 201),
);
