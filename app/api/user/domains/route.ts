import { addDomain } from "@/lib/domains/add-domain";
import { addDomainSchema, listDomains, toDomainView } from "@/lib/domains/manage-domains";
import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";

/** GET /api/user/domains → the user's whitelisted domains with their withdrawal wallets. */
export const GET = withUser(async ({ db, user }) => ok(await listDomains(db, user.id)));

/** POST /api/user/domains {domain} → 201 */
export const POST = withUser(async ({ req, db, user }) => {
  const { domain } = await readJson(req, addDomainSchema);
  return ok(toDomainView(await addDomain(db, user.id, domain)), 201);
});
