import { addDomain } from "@/lib/domain/merchant-domains/add-domain";
import { addDomainSchema, listDomains, toDomainView } from "@/lib/domain/merchant-domains/manage-domains";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/domains → the user's whitelisted domains with their withdrawal wallets. */
export const GET = withMember("read", async ({ db, account }) => ok(await listDomains(db, account.id)));

/** POST /api/user/domains {domain} → 201 */
export const POST = withMember("developer", async ({ req, db, account }) => {
  const { domain } = await readJson(req, addDomainSchema);
  return ok(toDomainView(await addDomain(db, account.id, domain)), 201);
});
