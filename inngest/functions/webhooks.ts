import { claimWebhooksStep, deliverWebhookStep } from "@/lib/jobs/steps";
import { IN_FLIGHT_PER_ENDPOINT } from "@/lib/webhooks/dispatch";
import { inngest } from "../client";
import { jobDb } from "../db";
import { webhookDue } from "../events";

/**
 * Every minute, and every couple of seconds within it: lease the deliveries that are due and hand
 * each to deliver-webhook. A lease that is never acted on (a lost event) runs out and the
 * delivery is claimed again, so nothing is dropped between the two functions.
 */
export const DISPATCH_ROUNDS = 25;
export const DISPATCH_PAUSE = "2s";
/** A leased delivery waits in Inngest's queue before its run starts: a longer lease than in-process. */
const INNGEST_LEASE_MS = 120_000;

export const dispatchWebhooks = inngest.createFunction(
  { id: "dispatch-webhooks", triggers: [{ cron: "* * * * *" }], singleton: { mode: "skip" }, retries: 0 },
  async ({ step }) => {
    let dispatched = 0;
    for (let round = 0; round < DISPATCH_ROUNDS; round++) {
      const due = await step.run(`claim-${round}`, async () => claimWebhooksStep(await jobDb(), 200, INNGEST_LEASE_MS));
      if (due.length > 0)
        await step.sendEvent(
          `deliver-${round}`,
          due.map((data) => webhookDue.create(data)),
        );
      dispatched += due.length;
      if (round < DISPATCH_ROUNDS - 1) await step.sleep(`pause-${round}`, DISPATCH_PAUSE);
    }
    return { dispatched };
  },
);

/** One attempt; the retry schedule is ours (recorded on the delivery), not Inngest's. */
export const deliverWebhook = inngest.createFunction(
  {
    id: "deliver-webhook",
    triggers: [webhookDue],
    concurrency: { limit: IN_FLIGHT_PER_ENDPOINT, key: "event.data.endpointId" },
    retries: 0,
  },
  async ({ event, step }) => ({ outcome: await step.run("attempt", async () => deliverWebhookStep(await jobDb(), event.data)) }),
);
