// A forwarding worker in its own process (configuration from the environment), so a test can
// kill it at an awkward moment and check what a restart does.
import { getDatabase } from "@/lib/db";
import { dueForwardsStep, forwardStep } from "@/lib/ops/jobs/steps";

async function main() {
  const { db } = await getDatabase();
  for (;;) {
    for (const { forwardId } of await dueForwardsStep(db)) await forwardStep(db, forwardId);
    await new Promise((r) => setTimeout(r, 100));
  }
}

void main();
