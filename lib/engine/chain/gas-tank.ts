/**
 * Which generation of the gas tank key the service uses (m/44'/60'/1'/0/<generation>). It moves
 * on only when the operator hands the BatchSweeper's operator role to a fresh tank
 * (`npm run admin -- sweeper rotate-operator`, after a tank key leaked); every process picks the
 * new one up from the database — at start-up, and when the sweeper says its operator changed.
 */

import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { appState } from "../../db/schema/app-state";
import { gasTankGeneration, setGasTankGeneration } from "./keys";

const STATE_KEY = "gas_tank_generation";
/** Recovery looks at the tanks of these generations (a rotation is a rare, manual event). */
export const MAX_GAS_TANK_GENERATIONS = 16;

export async function loadGasTankGeneration(db: Db): Promise<number> {
  const [row] = await db.select().from(appState).where(eq(appState.key, STATE_KEY));
  const stored = row?.value as { generation?: unknown } | undefined;
  const generation = typeof stored?.generation === "number" ? stored.generation : 0;
  if (generation !== gasTankGeneration()) setGasTankGeneration(generation);
  return generation;
}

export async function saveGasTankGeneration(db: Db, generation: number): Promise<void> {
  if (!Number.isSafeInteger(generation) || generation < 0 || generation >= MAX_GAS_TANK_GENERATIONS)
    throw new RangeError(`gas tank generation out of range: ${generation}`);
  const value = { generation };
  await db
    .insert(appState)
    .values({ key: STATE_KEY, value })
    .onConflictDoUpdate({ target: appState.key, set: { value, updatedAt: new Date() } });
  setGasTankGeneration(generation);
}
