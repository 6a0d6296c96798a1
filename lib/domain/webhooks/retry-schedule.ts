/**
 * When a delivery is tried (docs/design.md §15): at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and
 * 10 h after each failure — eight attempts over about 28 hours — and then it is `failed`: shown to
 * the merchant and counted in /api/health, never dropped, and redeliverable by hand.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** After `attemptsMade` failed attempts: the wait before the next, or null when it has failed for good. */
export function retryDelayMs(attemptsMade: number): number | null {
  // biome-ignore lint/style/noNonNullAssertion: 1 ≤ attemptsMade < MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1, so the index is within the list
  return attemptsMade >= 1 && attemptsMade < MAX_ATTEMPTS ? RETRY_DELAYS_MS[attemptsMade - 1]! : null;
}
