import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { createPaymentLink, listPaymentLinks } from "@/lib/payment-links/manage-links";
import { createLinkSchema } from "@/lib/payment-links/schemas";

/** GET /api/user/payment-links → the user's links, newest first, with their figures. */
export const GET = withUser(async ({ db, user }) => ok({ items: await listPaymentLinks(db, user.id) }));

/** POST /api/user/payment-links {title, tokenId, amount | minAmount, description?, domainId?, redirectUrl?, active?} → 201 */
export const POST = withUser(async ({ req, db, user }) =>
  ok(await createPaymentLink(db, user.id, await readJson(req, createLinkSchema)), 201),
);
