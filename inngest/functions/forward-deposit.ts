/**
 * forward-deposit (the schedule's `forward`): drives one forward to completion. Each attempt is a
 * step (the forwarder itself is resumable), then a sleep until the forward is due again by its own
 * recorded schedule — a second while a transaction waits to be mined, the failure's backoff after
 * a failed attempt — the schedule the embedded runner follows too. One run at a time per deposit
 * address. A forward still open after the last attempt is picked up again by requeue-forwards once
 * it is due.
 */

import { SCHEDULE } from "@/lib/ops/jobs/schedule";
import { forwardStep } from "@/lib/ops/jobs/steps";
import { inngest } from "../client";
import { jobDb } from "../db";
import { forwardRequested } from "../events";
import { eventOptions, runRounds } from "../job-function";

const { forward } = SCHEDULE;
export const FORWARD_ATTEMPTS = forward.inngest.rounds;

export const forwardDeposit = inngest.createFunction(eventOptions(forward, forwardRequested), async ({ event, step }) => {
  const last = await runRounds(step, forward, async (attempt) => {
    const result = await step.run(`advance-${attempt}`, async () => forwardStep(await jobDb(), event.data.forwardId));
    return { outcome: result.outcome, pause: forward.pause[result.outcome], until: result.askAgainAt };
  });
  return last.pause === "done" ? { outcome: last.outcome } : { outcome: "deferred" as const }; // completed or held, or not yet
});
