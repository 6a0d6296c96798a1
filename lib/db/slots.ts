import { randomInt } from "node:crypto";
import { COUNT_SLOTS } from "./schema";

/**
 * The slot a writing transaction adds its count deltas to (lib/db/schema/payments/history-counts.ts):
 * one per transaction, at random, so concurrent writers of one owner rarely meet on a row.
 */
export const countSlot = () => randomInt(COUNT_SLOTS);

/** Deltas summed per key, zeros dropped, in key order: every transaction locks counter rows in one order, so none deadlock. */
export function summedDeltas<T>(entries: { key: string; row: T; delta: bigint }[]): { row: T; delta: bigint }[] {
  const sums = new Map<string, { row: T; delta: bigint }>();
  for (const { key, row, delta } of entries) {
    const sum = sums.get(key);
    if (sum) sum.delta += delta;
    else sums.set(key, { row, delta });
  }
  return [...sums.entries()]
    .filter(([, sum]) => sum.delta !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, sum]) => sum);
}
