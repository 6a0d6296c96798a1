/**
 * The engine's `gasPayers` port (lib/engine/ledger/charges.ts): the merchant behind a session the
 * tank sweeps for, or behind a domain whose withdrawal wallet it tops up (docs/design.md §18).
 */
import { inArray } from "drizzle-orm";
import type { Db } from "../../db";
import { domains, paymentSessions } from "../../db/schema";
import type { GasPayers } from "../../engine/ledger/charges";

export const gasPayersOfRecords: GasPayers = {
  async ofSessions(db, sessionIds) {
    const owners = await db
      .select({ id: paymentSessions.id, userId: paymentSessions.userId })
      .from(paymentSessions)
      .where(inArray(paymentSessions.id, sessionIds));
    return new Map(owners.map((o) => [o.id, o.userId]));
  },
  async ofDomain(db: Db, domainId: number) {
    const [domain] = await db
      .select({ userId: domains.userId })
      .from(domains)
      .where(inArray(domains.id, [domainId]));
    return domain?.userId;
  },
};
