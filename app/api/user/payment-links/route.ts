import { createPaymentLink, listPaymentLinks } from "@/lib/domain/payment-links/manage-links";
import { createLinkSchema } from "@/lib/domain/payment-links/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/payment-links → the user's links, newest first, with their figures. */
export const GET = withMember("read", async ({ db, account }) => ok({ items: await listPaymentLinks(db, account.id) }));

/** POST /api/user/payment-links {title, tokenId, amount | minAmount, description?, domainId?, redirectUrl?, active?} → 201 */
export const POST = withMember("payments", async ({ req, db, ...principal }) =>
  ok(await createPaymentLink(db, principal, await readJson(req, createLinkSchema)), 201),
);
