/**
 * Who a gas-tank transaction is signed for (docs/design.md §18). A batch is shared by entry: a
 * merchant with 3 of its 10 entries carries 3/10 of its cost.
 */

import { inArray } from "drizzle-orm";
import type { Db } from "../../db";
import { domains, paymentSessions } from "../../db/schema";

export interface GasChargeShare {
  userId: number;
  units: number;
  totalUnits: number;
}

/** One charge per merchant of the sessions swept, by number of entries (sessions may repeat). */
export async function chargesForSessions(db: Db, sessionIds: readonly (string | null)[]): Promise<GasChargeShare[]> {
  const known = sessionIds.filter((id): id is string => id !== null);
  if (known.length === 0) return [];
  const owners = await db
    .select({ id: paymentSessions.id, userId: paymentSessions.userId })
    .from(paymentSessions)
    .where(inArray(paymentSessions.id, [...new Set(known)]));
  const ownerOf = new Map(owners.map((o) => [o.id, o.userId]));
  const units = new Map<number, number>();
  for (const id of known) {
    const userId = ownerOf.get(id);
    if (userId !== undefined) units.set(userId, (units.get(userId) ?? 0) + 1);
  }
  return [...units].map(([userId, n]) => ({ userId, units: n, totalUnits: sessionIds.length }));
}

/** A domain's withdrawal wallet (its key index is the domain id) is paid for by the domain's owner. */
export async function chargeForDomainWallet(db: Db, domainId: number): Promise<GasChargeShare[]> {
  const [domain] = await db
    .select({ userId: domains.userId })
    .from(domains)
    .where(inArray(domains.id, [domainId]));
  return domain ? [{ userId: domain.userId, units: 1, totalUnits: 1 }] : [];
}
