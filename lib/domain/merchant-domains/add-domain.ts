import { eq } from "drizzle-orm";
import { normalizeOrigin } from "../../base/normalize-origin";
import type { Db } from "../../db";
import { isUniqueViolation } from "../../db/errors";
import { requireRow } from "../../db/rows";
import { type Domain, domains } from "../../db/schema";
import { serviceAddresses } from "../../engine/chain/wallet-addresses";
import { assertMayAddDomain, lockMerchant } from "../gas/limits";
import { domainRefusal } from "./reasons";

/**
 * Whitelists an origin for the user; its id fixes its withdrawal wallet (docs/design.md §7). At most
 * the plan's `maxDomains` (each domain is a wallet the gas tank may top up).
 */
export async function addDomain(db: Db, userId: number, domain: string): Promise<Domain> {
  const origin = normalizeOrigin(domain);
  if (!origin) {
    throw domainRefusal(
      "VALIDATION_ERROR",
      "domain-origin-invalid",
      "domain must be an origin URL: http(s)://host[:port] without path or query",
    );
  }
  const keys = serviceAddresses();
  try {
    return await db.transaction(async (tx) => {
      // Under the merchant's lock: concurrent requests cannot pass the plan's limit together.
      await lockMerchant(tx, userId);
      await assertMayAddDomain(tx, userId);
      const inserted = requireRow(await tx.insert(domains).values({ userId, origin }).returning(), "insert into domains");
      const updated = await tx
        .update(domains)
        .set({ withdrawalAddress: keys.withdrawal(inserted.id) })
        .where(eq(domains.id, inserted.id))
        .returning();
      return requireRow(updated, `withdrawal address of domain ${inserted.id}`);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw domainRefusal("VALIDATION_ERROR", "domain-already-whitelisted", `domain ${origin} is already whitelisted`);
    throw error;
  }
}
