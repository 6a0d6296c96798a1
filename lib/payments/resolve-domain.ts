import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { prepared } from "../db/prepared";
import type { Db } from "../db";
import { domains, type Domain } from "../db/schema";
import { normalizeOrigin } from "../domains/normalize-origin";
import { AppError } from "../errors";

/**
 * The domain a session belongs to (DESIGN.md §5): `domainId` if given, else the domain of the
 * `Origin` header, else the user's first domain. A browser call from an origin the user has not
 * whitelisted is refused even with a valid domainId.
 */
export async function resolveSessionDomain(
  db: Db,
  userId: number,
  input: { domainId?: number; origin: string | null },
): Promise<Domain> {
  const owned = await prepared(db, "live_domains_of_user", (d) =>
    d
      .select()
      .from(domains)
      .where(and(eq(domains.userId, sql.placeholder("userId")), isNull(domains.deletedAt)))
      .orderBy(asc(domains.id))
      .prepare("live_domains_of_user"),
  ).execute({ userId });
  if (owned.length === 0) {
    throw new AppError("DOMAIN_NOT_WHITELISTED", "whitelist a domain (POST /api/user/domains) before creating payments");
  }
  let fromOrigin: Domain | undefined;
  if (input.origin !== null) {
    const origin = normalizeOrigin(input.origin);
    fromOrigin = origin ? owned.find((d) => d.origin === origin) : undefined;
    if (!fromOrigin) throw new AppError("DOMAIN_NOT_WHITELISTED", `origin ${input.origin} is not a whitelisted domain`);
  }
  if (input.domainId !== undefined) {
    const chosen = owned.find((d) => d.id === input.domainId);
    if (!chosen) throw new AppError("DOMAIN_NOT_WHITELISTED", `domainId ${input.domainId} is not one of your whitelisted domains`);
    return chosen;
  }
  return fromOrigin ?? owned[0]!;
}
