/**
 * Who a gas-tank transaction is signed for (docs/design.md §18). A batch is shared by entry: a
 * merchant with 3 of its 10 entries carries 3/10 of its cost. Which merchant a session or a domain
 * belongs to is asked through the `gasPayers` port (the sessions and domains are not the engine's
 * tables); the shares are worked out here.
 */

import type { Db } from "../../db";
import { enginePort } from "../chain/ports";

export interface GasChargeShare {
  userId: number;
  units: number;
  totalUnits: number;
}

/** The merchants behind the sessions and domains the tank pays for. */
export interface GasPayers {
  /** The merchant of each of these sessions (distinct ids; a session not found is absent). */
  ofSessions(db: Db, sessionIds: string[]): Promise<Map<string, number>>;
  /** The merchant of a domain (undefined: no such domain). */
  ofDomain(db: Db, domainId: number): Promise<number | undefined>;
}

export const gasPayers = enginePort<GasPayers>("gas-payers");

/** One charge per merchant of the sessions swept, by number of entries (sessions may repeat). */
export async function chargesForSessions(db: Db, sessionIds: readonly (string | null)[]): Promise<GasChargeShare[]> {
  const known = sessionIds.filter((id): id is string => id !== null);
  if (known.length === 0) return [];
  const ownerOf = await gasPayers.get().ofSessions(db, [...new Set(known)]);
  const units = new Map<number, number>();
  for (const id of known) {
    const userId = ownerOf.get(id);
    if (userId !== undefined) units.set(userId, (units.get(userId) ?? 0) + 1);
  }
  return [...units].map(([userId, n]) => ({ userId, units: n, totalUnits: sessionIds.length }));
}

/** A domain's withdrawal wallet (its key index is the domain id) is paid for by the domain's owner. */
export async function chargeForDomainWallet(db: Db, domainId: number): Promise<GasChargeShare[]> {
  const userId = await gasPayers.get().ofDomain(db, domainId);
  return userId !== undefined ? [{ userId, units: 1, totalUnits: 1 }] : [];
}
