/**
 * The dust-sweep gate (lib/engine/forwarding/dust-gate.ts, registered by lib/ops/jobs): how much of a
 * merchant's daily gas budget is left for sweeps a payer triggered below the token's minimum
 * forward, and what one such sweep is reckoned to cost. The planner takes that cost from the rest
 * for every such sweep it plans in a round, and holds the others until 00:00 UTC.
 */

import { and, count, eq, inArray, isNull } from "drizzle-orm";
import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { forwards, paymentSessions } from "../../db/schema";
import { publicClientFor, requireNetworkConfig } from "../../engine/chain/networks";
import { PLAIN_TRANSFER_GAS } from "../../engine/chain/transactions";
import { planLimits } from "./limits";
import { gasSpentSince, utcDayStart } from "./spend";

/** The top-up's gas limit when the deposit address is delegated (EIP-7702): the larger of the two. */
const TOP_UP_GAS = 2n * PLAIN_TRANSFER_GAS;

/**
 * The most one sweep may cost the tank: a classic sweep's top-up (MAX_SWEEP_GAS × price, the cap
 * of its gas limit) plus the top-up's own fee, at the node's gas price (never above MAX_GAS_PRICE;
 * at MAX_GAS_PRICE when the node does not answer). A batch entry costs less than that.
 */
export async function dustSweepCost(network: string): Promise<bigint> {
  const cap = requireNetworkConfig(network).maxGasPrice;
  let price = await publicClientFor(network)
    .getGasPrice()
    .catch(() => cap);
  if (price > cap) price = cap;
  return (getConfig().maxSweepGas + TOP_UP_GAS) * price;
}

export async function dustSweepBudgets(
  db: Db,
  network: string,
  userIds: number[],
  now = new Date(),
): Promise<Map<number, { remaining: bigint; sweepCost: bigint; resetAt: Date }>> {
  const today = utcDayStart(now);
  const resetAt = new Date(today.getTime() + 86_400_000);
  const budgets = new Map<number, { remaining: bigint; sweepCost: bigint; resetAt: Date }>();
  let sweepCost: bigint | undefined;
  for (const userId of userIds) {
    const { dailyGasBudget } = await planLimits(db, userId);
    if (dailyGasBudget === null) continue;
    sweepCost ??= await dustSweepCost(network);
    // Sweeps planned in earlier rounds and not paid yet are not in the ledger: they count as if paid.
    const [unpaid] = await db
      .select({ n: count() })
      .from(forwards)
      .innerJoin(paymentSessions, eq(paymentSessions.id, forwards.sessionId))
      .where(
        and(
          eq(paymentSessions.userId, userId),
          eq(forwards.network, network),
          inArray(forwards.status, ["pending"]),
          isNull(forwards.gasTxId),
          isNull(forwards.batchId),
        ),
      );
    const spent = (await gasSpentSince(db, userId, today)) + BigInt(unpaid?.n ?? 0) * sweepCost;
    budgets.set(userId, { remaining: dailyGasBudget - spent, sweepCost, resetAt });
  }
  return budgets;
}
