/**
 * scan-chains (the schedule's `scan`): cron is minute-granular, payments must be seen within
 * seconds, so each minute's run (singleton: a run still going makes the next one skip) scans every
 * network, pauses and scans again, for most of the minute. A network whose scan fails is skipped
 * until the next round; the others go on. New deposits are handed to forward-deposit as events.
 */

import { SCHEDULE } from "@/lib/ops/jobs/schedule";
import { scanRoundStep } from "@/lib/ops/jobs/steps";
import { inngest } from "../client";
import { jobDb } from "../db";
import { forwardRequested } from "../events";
import { cronOptions, runRounds } from "../job-function";

const { scan } = SCHEDULE;
export const SCAN_ROUNDS = scan.inngest.rounds;

export const scanChains = inngest.createFunction(cronOptions(scan), async ({ step }) => {
  let transfers = 0;
  await runRounds(step, scan, async (round) => {
    const found = await step.run(`scan-${round}`, async () => scanRoundStep(await jobDb(), scan.inngest.pageSize));
    transfers += found.seen;
    if (found.forwards.length > 0) {
      await step.sendEvent(
        `forward-${round}`,
        found.forwards.map((data) => forwardRequested.create(data)),
      );
    }
    // Each network caught up, failed, or used its page of ranges: every one goes again at the next round.
    return { pause: "next-round" as const };
  });
  return { transfers };
});
