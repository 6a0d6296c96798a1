/**
 * The adapter between the job schedule (lib/ops/jobs/schedule.ts) and Inngest, so job code does not
 * depend on the engine: a declaration becomes a function's options (id, trigger, concurrency,
 * retries), and a run's rounds become steps. Each round is the function's own step.run of the
 * job's step; after it comes the pause its outcome asks for — "next-round" (and "at-once", whose
 * round used up its page): step.sleep for the declared interval (step id `pause-N`); "recorded":
 * step.sleepUntil the time the outcome names (`wait-N`); "done": the run ends — at most the
 * declared rounds, no pause after the last.
 */

import type { GetStepTools } from "inngest";
import type { JobDeclaration, Pause } from "@/lib/ops/jobs/schedule";
import type { inngest } from "./client";

type Step = GetStepTools<typeof inngest>;
type CronJob = JobDeclaration & { inngest: { trigger: { cron: string } } };
type EventJob = JobDeclaration & { inngest: { trigger: { event: string } } };

/** The concurrency keys as Inngest expressions over the triggering event. */
export const CONCURRENCY_KEYS = { "deposit-address": "event.data.fromAddress", endpoint: "event.data.endpointId" } as const;

function limits(job: JobDeclaration) {
  const { concurrency, inngest: driving } = job;
  return {
    // One run at a time: a cron run due while the last still goes is skipped; per-network isolation is within the run.
    ...(concurrency.key === "singleton" || concurrency.key === "network"
      ? { singleton: { mode: "skip" as const } }
      : { concurrency: { limit: concurrency.limit, key: CONCURRENCY_KEYS[concurrency.key] } }),
    ...(driving.retries === undefined ? {} : { retries: driving.retries }),
  };
}

/** A cron job's function options. */
export function cronOptions(job: CronJob) {
  return { id: job.id, triggers: [{ cron: job.inngest.trigger.cron }], ...limits(job) };
}

/** An event-driven job's function options; `event` is the typed event of the declared name. */
export function eventOptions<E extends { name: string }>(job: EventJob, event: E) {
  if (event.name !== job.inngest.trigger.event)
    throw new Error(`${job.id} is triggered by ${job.inngest.trigger.event}, not ${event.name}`);
  const triggers: [E] = [event];
  return { id: job.id, triggers, ...limits(job) };
}

/** How a round ended: the pause its outcome asks for, and for "recorded" the time (ISO) it names. */
export interface RoundEnd {
  pause: Pause;
  until?: string | null;
}

/**
 * Runs `round` (0, 1, …) with the declared pauses between, until an outcome says "done" or the
 * declared rounds are used; returns how the last round ended.
 */
export async function runRounds<R extends RoundEnd>(step: Step, job: JobDeclaration, round: (n: number) => Promise<R>): Promise<R> {
  let n = 0;
  let end = await round(n);
  while (end.pause !== "done" && n + 1 < job.inngest.rounds) {
    if (end.pause === "recorded") {
      if (!end.until) throw new Error(`${job.id}: a recorded pause names no time`);
      await step.sleepUntil(`wait-${n}`, end.until);
    } else {
      if (job.inngest.everyMs === undefined) throw new Error(`${job.id}: rounds without an interval`);
      await step.sleep(`pause-${n}`, job.inngest.everyMs);
    }
    n++;
    end = await round(n);
  }
  return end;
}
