import { forwardStep } from "@/lib/jobs/steps";
import { inngest } from "../client";
import { jobDb } from "../db";
import { forwardRequested } from "../events";

/**
 * Drives one forward to completion: each attempt is a step (the forwarder itself is resumable),
 * with a pause while a transaction waits to be mined. One run at a time per deposit address.
 * A forward still open after the last attempt is picked up again by requeue-forwards.
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
      const outcome = await step.run(`advance-${attempt}`, async () => forwardStep(await jobDb(), event.data.forwardId));
      if (outcome === "completed" || outcome === "held") return { outcome };
      await step.sleep(`wait-${attempt}`, outcome === "gas-tank-low" ? "30s" : "2s");
    }
    return { outcome: "deferred" as const };
  },
);
