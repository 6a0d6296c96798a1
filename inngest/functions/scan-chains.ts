import { scanRoundStep } from "@/lib/jobs/steps";
import { inngest } from "../client";
import { jobDb } from "../db";
import { forwardRequested } from "../events";

/**
 * Cron is minute-granular, payments must be seen within seconds: each minute's run (singleton:
 * a run still going makes the next one skip) scans, sleeps a little and scans again, for most of
 * the minute. A network whose scan fails is skipped until the next round; the others go on. New
 * deposits are handed to forward-deposit as events.
 */
export const SCAN_ROUNDS = 25;
export const SCAN_PAUSE = "2s";
const MAX_RANGES_PER_ROUND = 20;

export const scanChains = inngest.createFunction(
  { id: "scan-chains", triggers: [{ cron: "* * * * *" }], singleton: { mode: "skip" }, retries: 0 },
  async ({ step }) => {
    let transfers = 0;
    for (let round = 0; round < SCAN_ROUNDS; round++) {
      const found = await step.run(`scan-${round}`, async () => scanRoundStep(await jobDb(), MAX_RANGES_PER_ROUND));
      transfers += found.seen;
      if (found.forwards.length > 0) {
        await step.sendEvent(
          `forward-${round}`,
          found.forwards.map((data) => forwardRequested.create(data)),
        );
      }
      if (round < SCAN_ROUNDS - 1) await step.sleep(`pause-${round}`, SCAN_PAUSE);
    }
    return { transfers };
  },
);
