/**
 * A forward's retry schedule, the one every driver follows (the embedded runner, the Inngest
 * function, the test helpers): when the forward is due, when a sleeping driver asks again, and
 * what a failed attempt does to it. Pure; forward-records.ts writes what it decides.
 *
 * Only what repeats counts toward holding a forward. An RPC that does not answer or throttles us
 * (rpc-errors' retryable kinds) says nothing about the forward: the attempt is not counted, the
 * pause stays short, and an outage of any length leaves every forward pending, to go on as soon
 * as the node answers again.
 */

import type { ForwardStatus } from "../../db/schema/engine";
import { isRetryable, type RpcErrorKind } from "../chain/rpc-errors";

/** After this many counted failures without progress a pending forward is held, never retried forever. */
export const MAX_FORWARD_ATTEMPTS = 8;
const MAX_BACKOFF_SECONDS = 600;
/**
 * The longest pause after an RPC failure worth retrying as is. No column counts such failures in
 * a row, so their pause cannot grow on its own; short and bounded, a minute at most.
 */
export const MAX_RETRYABLE_PAUSE_SECONDS = 60;
/** A sleeping driver asks again no sooner than this (a forward that waits is deferred by 1 s). */
const MIN_ASK_MS = 1000;

/** Exponential from 5 s, capped at 10 min: the pause after the `attempts`-th counted failure. */
export function backoffSeconds(attempts: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, 5 * 2 ** Math.max(0, attempts - 1));
}

export type FailureDecision = { hold: true; attempts: number } | { hold: false; attempts: number; retryInSeconds: number };

/**
 * What a failed attempt does to the forward: its new count of failed attempts, and either a hold
 * (pending only: a forward with a transaction in flight keeps checking the chain) or the pause
 * before the next attempt.
 */
export function decideFailure(forward: { attempts: number; status: ForwardStatus }, kind: RpcErrorKind): FailureDecision {
  if (isRetryable(kind)) {
    // A provider that throttles us asked for fewer requests: the longest of the short pauses.
    const retryInSeconds =
      kind === "rate-limited" ? MAX_RETRYABLE_PAUSE_SECONDS : Math.min(MAX_RETRYABLE_PAUSE_SECONDS, backoffSeconds(forward.attempts + 1));
    return { hold: false, attempts: forward.attempts, retryInSeconds };
  }
  const attempts = forward.attempts + 1;
  if (forward.status === "pending" && attempts >= MAX_FORWARD_ATTEMPTS) return { hold: true, attempts };
  return { hold: false, attempts, retryInSeconds: backoffSeconds(attempts) };
}

/** Whether the forward may take a step at `now` (dueForwards asks the database the same). */
export function isForwardDue(forward: { nextAttemptAt: Date }, now: Date): boolean {
  return forward.nextAttemptAt.getTime() <= now.getTime();
}

/**
 * When a driver that sleeps between steps (Inngest) asks again: when the forward is due (null:
 * unknown, e.g. another worker holds it), but no sooner than a second and no later than the
 * longest backoff from `now`.
 */
export function askAgainAt(dueAt: Date | null, now: Date): Date {
  const earliest = now.getTime() + MIN_ASK_MS;
  const latest = now.getTime() + MAX_BACKOFF_SECONDS * 1000;
  return new Date(Math.min(latest, Math.max(earliest, dueAt?.getTime() ?? earliest)));
}
