/**
 * A sweep below the token's minimum forward happens only because a payer completed a session with
 * it (forward-plan.ts); the gas tank pays for it. Such sweeps count against the merchant's daily
 * gas budget like every other spend (DESIGN.md §18, issue 32): while the merchant is over it they
 * wait — recorded, not lost — and are planned again when the budget resets (or as soon as the
 * address's unswept amount reaches the minimum, which is swept as any payment is).
 *
 * The budget is a package rule (lib/gas), which the chain engine may not import: this is the port,
 * registered by lib/jobs (the drivers that run the engine). Without one, nothing waits.
 */

import type { Db } from "../db";

/** For these merchants: until when their below-minimum sweeps must wait (absent: not over budget). */
export type DustSweepGate = (db: Db, userIds: number[], now: Date) => Promise<Map<number, Date>>;

const KEY = Symbol.for("bsc-pay.dust-sweep-gate");
type Holder = { [KEY]?: DustSweepGate };

export function setDustSweepGate(gate: DustSweepGate): void {
  (globalThis as Holder)[KEY] = gate;
}

export async function dustSweepsWaitUntil(db: Db, userIds: number[], now: Date): Promise<Map<number, Date>> {
  const gate = (globalThis as Holder)[KEY];
  return gate && userIds.length > 0 ? gate(db, [...new Set(userIds)], now) : new Map();
}
