/**
 * A sweep below the token's minimum forward happens only because a payer completed a session with
 * it (forward-plan.ts); the gas tank pays for it. Such sweeps count against the merchant's daily
 * gas budget like every other spend (docs/design.md §18). The budget left is read once per
 * planning round, before any of the round's gas is spent, so each sweep planned in the round takes
 * an estimate of its cost from it: a merchant just under budget gets only what the rest can pay,
 * not a whole page of sweeps. The others wait — recorded, not lost — and are planned again when
 * the budget resets (or as soon as the address's unswept amount reaches the minimum, which is
 * swept as any payment is).
 *
 * The budget is a plan rule (lib/domain/gas), which the chain engine may not import: this is the port,
 * registered by lib/ops/jobs (the drivers that run the engine). Without one, nothing waits.
 */

import type { Db } from "../../db";

/** One merchant's budget for below-minimum sweeps in this planning round. */
export interface DustSweepBudget {
  /** Wei of today's budget not spent yet (nor reserved by sweeps planned and not yet paid). */
  remaining: bigint;
  /** A conservative estimate of what one such sweep costs the tank (wei). */
  sweepCost: bigint;
  /** When the budget resets: what a sweep it cannot pay waits for. */
  resetAt: Date;
}

/** For these merchants on `network`: their budget (absent: no budget, nothing waits). */
export type DustSweepGate = (db: Db, network: string, userIds: number[], now: Date) => Promise<Map<number, DustSweepBudget>>;

const KEY = Symbol.for("bsc-pay.dust-sweep-gate");
type Holder = { [KEY]?: DustSweepGate };

export function setDustSweepGate(gate: DustSweepGate): void {
  (globalThis as Holder)[KEY] = gate;
}

export async function dustSweepBudgets(db: Db, network: string, userIds: number[], now: Date): Promise<Map<number, DustSweepBudget>> {
  const gate = (globalThis as Holder)[KEY];
  return gate && userIds.length > 0 ? gate(db, network, [...new Set(userIds)], now) : new Map();
}

/**
 * Takes one sweep's estimated cost from the merchant's budget of the round; returns until when the
 * sweep must wait instead when the rest cannot pay it (then nothing is taken).
 */
export function takeDustSweep(budgets: Map<number, DustSweepBudget>, userId: number): Date | undefined {
  const budget = budgets.get(userId);
  if (!budget) return undefined;
  if (budget.remaining < budget.sweepCost) return budget.resetAt;
  budget.remaining -= budget.sweepCost;
  return undefined;
}
