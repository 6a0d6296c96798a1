import {
  confirmWithdrawalsStep,
  dueForwardsStep,
  expireDueStep,
  planForwardsStep,
  RECONCILE_EVERY_MS,
  reconcileIfDueStep,
} from "@/lib/jobs/steps";
import { inngest } from "../client";
import { jobDb } from "../db";
import { forwardRequested } from "../events";

/** Every minute: expire due sessions (reads are exact anyway) and re-queue forwards left open. */
export const expireSessions = inngest.createFunction(
  { id: "expire-sessions", triggers: [{ cron: "* * * * *" }], singleton: { mode: "skip" } },
  async ({ step }) => ({ expired: await step.run("expire", async () => expireDueStep(await jobDb())) }),
);

export const requeueForwards = inngest.createFunction(
  { id: "requeue-forwards", triggers: [{ cron: "* * * * *" }], singleton: { mode: "skip" } },
  async ({ step }) => {
    await step.run("plan-forwards", async () => (await planForwardsStep(await jobDb())).length);
    const due = await step.run("due-forwards", async () => dueForwardsStep(await jobDb(), 200));
    if (due.length > 0)
      await step.sendEvent(
        "requeue",
        due.map((data) => forwardRequested.create(data)),
      );
    return { requeued: due.length };
  },
);

/** Every minute, and every few seconds within it: confirm submitted withdrawals. */
export const CONFIRM_ROUNDS = 10;
export const confirmWithdrawals = inngest.createFunction(
  { id: "confirm-withdrawals", triggers: [{ cron: "* * * * *" }], singleton: { mode: "skip" } },
  async ({ step }) => {
    let completed = 0;
    for (let round = 0; round < CONFIRM_ROUNDS; round++) {
      const counts = await step.run(`confirm-${round}`, async () => confirmWithdrawalsStep(await jobDb()));
      completed += counts.completed;
      if (counts.pending === 0) break;
      await step.sleep(`pause-${round}`, "5s");
    }
    return { completed };
  },
);

/** Daily (04:00 UTC): ledger against chain; the result shows in /api/health and `admin status`. An hour's slack: the cron is not late because the last run was a minute later. */
export const reconcileDaily = inngest.createFunction(
  { id: "reconcile-daily", triggers: [{ cron: "0 4 * * *" }], singleton: { mode: "skip" }, retries: 1 },
  async ({ step }) => ({
    differences: await step.run("reconcile", async () => reconcileIfDueStep(await jobDb(), RECONCILE_EVERY_MS - 3600_000)),
  }),
);
