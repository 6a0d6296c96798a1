/**
 * A domain's fiat thresholds (docs/design.md §23): its own under-payment and rate tolerances, or the
 * gateway's (FIAT_UNDERPAY_BPS, FIAT_RATE_TOLERANCE_BPS) where it has none — and for a session of
 * no domain.
 */
import { inArray } from "drizzle-orm";
import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { type Domain, domains } from "../../db/schema";

export interface DomainFiatThresholds {
  underpayBps: bigint;
  rateToleranceBps: bigint;
}

/** The bounds a domain's setting may take, in basis points (0 … 10 %). */
export const FIAT_BPS_MAX = 1000;

/** The thresholds in force for a domain's row (null: a session of no domain). Pure but for the config. */
export function fiatThresholdsOf(
  domain: Pick<Domain, "fiatUnderpayBps" | "fiatRateToleranceBps"> | null | undefined,
): DomainFiatThresholds {
  const config = getConfig();
  return {
    underpayBps: BigInt(domain?.fiatUnderpayBps ?? config.fiatUnderpayBps),
    rateToleranceBps: BigInt(domain?.fiatRateToleranceBps ?? config.fiatRateToleranceBps),
  };
}

/** Each domain's thresholds in force, one query (none for no ids); a missing id gets the gateway's. */
export async function fiatThresholdsOfDomains(
  db: Db,
  domainIds: readonly (number | null)[],
): Promise<(id: number | null) => DomainFiatThresholds> {
  const ids = [...new Set(domainIds.filter((id): id is number => id !== null))];
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({ id: domains.id, fiatUnderpayBps: domains.fiatUnderpayBps, fiatRateToleranceBps: domains.fiatRateToleranceBps })
          .from(domains)
          .where(inArray(domains.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return (id) => fiatThresholdsOf(id === null ? null : byId.get(id));
}
