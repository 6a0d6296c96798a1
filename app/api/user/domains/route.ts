import { addDomain } from "@/lib/domain/domains/add-domain";
import { addDomainSchema, listDomains, toDomainView } from "@/lib/domain/domains/manage-domains";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/** GET /api/user/domains → the user's whitelisted domains with their withdrawal wallets. */
export const GET = withUser(async ({ db, user }) => ok(await listDomains(db, user.id)));

/** POST /api/user/domains {domain} → 201 */
export const POST = withUser(async ({ req, db, user }) => {
  const { domain } = await readJson(req, addDomainSchema);
  return ok(toDomainView(await addDomain(db, user.id, domain)), 201);
});
