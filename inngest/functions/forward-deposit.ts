import { forwardStep } from "@/lib/jobs/steps";
import { inngest } from "../client";
import { jobDb } from "../db";
import { forwardRequested } from "../events";

/**
 * Drives one forward to completion: each attempt is a step (the forwarder itself is resumable),
 * then a sleep until the forward is due again by its own recorded schedule — a second while a
 * transaction waits to be mined, the failure's backoff after a failed attempt — the schedule the
 * embedded runner follows too. One run at a time per deposit address. A forward still open after
 * the last attempt is picked up again by requeue-forwards once it is due.
 */
export const FORWARD_ATTEMPTS = 20;

export const forwardDeposit = inngest.createFunction(
  {
    id: "forward-deposit",
    triggers: [forwardRequested],
    concurrency: { limit: 1, key: "event.data.fromAddress" },
    retries: 3,
  },
  async ({ event, step }) => {
    for (let attempt = 0; attempt < FORWARD_ATTEMPTS; attempt++) {
      const result = await step.run(`advance-${attempt}`, async () => forwardStep(await jobDb(), event.data.forwardId));
      if (result.askAgainAt === null) return { outcome: result.outcome }; // completed or held
      await step.sleepUntil(`wait-${attempt}`, result.askAgainAt);
    }
    return { outcome: "deferred" as const };
  },
);
