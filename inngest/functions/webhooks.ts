/**
 * dispatch-webhooks and deliver-webhook (the schedule's `dispatch` and `deliver`): every minute,
 * and every couple of seconds within it, lease the deliveries that are due and hand each to
 * deliver-webhook. A lease that is never acted on (a lost event) runs out and the delivery is
 * claimed again, so nothing is dropped between the two functions.
 */

import { SCHEDULE } from "@/lib/ops/jobs/schedule";
import { claimWebhooksStep, deliverWebhookStep } from "@/lib/ops/jobs/steps";
import { inngest } from "../client";
import { jobDb } from "../db";
import { webhookDue } from "../events";
import { cronOptions, eventOptions, runRounds } from "../job-function";

const { dispatch, deliver } = SCHEDULE;
export const DISPATCH_ROUNDS = dispatch.inngest.rounds;

export const dispatchWebhooks = inngest.createFunction(cronOptions(dispatch), async ({ step }) => {
  let dispatched = 0;
  await runRounds(step, dispatch, async (round) => {
    const due = await step.run(`claim-${round}`, async () =>
      claimWebhooksStep(await jobDb(), dispatch.inngest.pageSize, dispatch.inngest.leaseMs),
    );
    if (due.length > 0)
      await step.sendEvent(
        `deliver-${round}`,
        due.map((data) => webhookDue.create(data)),
      );
    dispatched += due.length;
    return { pause: dispatch.pause[due.length > 0 ? "claimed" : "none"] };
  });
  return { dispatched };
});

/** One attempt; the retry schedule is ours (recorded on the delivery), not Inngest's. */
export const deliverWebhook = inngest.createFunction(eventOptions(deliver, webhookDue), async ({ event, step }) => ({
  outcome: await step.run("attempt", async () =>
    deliverWebhookStep(await jobDb(), { ...event.data, channel: event.data.channel ?? "webhook" }),
  ),
}));
