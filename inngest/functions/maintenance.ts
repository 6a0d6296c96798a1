/**
 * The schedule's cron jobs besides scanning and webhooks: expire-sessions, requeue-forwards,
 * tend-ledger, send-awaiting-refunds and expire-approvals every minute (the last going round every few seconds while withdrawals are
 * pending), and reconcile-daily at 04:00 UTC.
 */

import { SCHEDULE } from "@/lib/ops/jobs/schedule";
import {
  dueForwardsStep,
  expireApprovalsStep,
  expireDueStep,
  planForwardsStep,
  reconcileIfDueStep,
  sendAwaitingRefundsStep,
  tendLedgerStep,
} from "@/lib/ops/jobs/steps";
import { inngest } from "../client";
import { jobDb } from "../db";
import { forwardRequested } from "../events";
import { cronOptions, runRounds } from "../job-function";

const { expire, requeue, ledger, refunds, approvals, reconcile } = SCHEDULE;
export const TEND_LEDGER_ROUNDS = ledger.inngest.rounds;

/** Expire due sessions (reads are exact anyway). */
export const expireSessions = inngest.createFunction(cronOptions(expire), async ({ step }) => ({
  expired: await step.run("expire", async () => expireDueStep(await jobDb())),
}));

/** Plan what is still flagged, and hand forwards left open (a lost event, a run out of attempts) to forward-deposit again. */
export const requeueForwards = inngest.createFunction(cronOptions(requeue), async ({ step }) => {
  await step.run("plan-forwards", async () => (await planForwardsStep(await jobDb())).length);
  const due = await step.run("due-forwards", async () => dueForwardsStep(await jobDb(), requeue.inngest.pageSize));
  if (due.length > 0)
    await step.sendEvent(
      "requeue",
      due.map((data) => forwardRequested.create(data)),
    );
  return { requeued: due.length };
});

/** The ledger's round and submitted withdrawals, again every few seconds while any is pending. */
export const tendLedger = inngest.createFunction(cronOptions(ledger), async ({ step }) => {
  let completed = 0;
  await runRounds(step, ledger, async (round) => {
    const counts = await step.run(`tend-${round}`, async () => tendLedgerStep(await jobDb()));
    completed += counts.completed;
    return { pause: ledger.pause[counts.pending === 0 ? "settled" : "pending"] };
  });
  return { completed };
});

/** Refunds awaiting funds, sent once their wallet can pay. */
export const sendAwaitingRefunds = inngest.createFunction(cronOptions(refunds), async ({ step }) =>
  step.run("send-awaiting-refunds", async () => sendAwaitingRefundsStep(await jobDb(), refunds.inngest.pageSize)),
);

/** Money-out approvals nobody decided within 72 h: expired, their withdrawals and refunds rejected. */
export const expireApprovals = inngest.createFunction(cronOptions(approvals), async ({ step }) => ({
  expired: await step.run("expire-approvals", async () => expireApprovalsStep(await jobDb(), approvals.inngest.pageSize)),
}));

/** Ledger against chain; the result shows in /api/health and `admin status`. An hour's slack: the cron is not late because the last run was a minute later. */
export const reconcileDaily = inngest.createFunction(cronOptions(reconcile), async ({ step }) => ({
  differences: await step.run("reconcile", async () => reconcileIfDueStep(await jobDb(), reconcile.inngest.minGapMs)),
}));
