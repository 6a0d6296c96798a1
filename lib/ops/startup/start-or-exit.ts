import { getConfig } from "../../base/config";
import { startJobs } from "../jobs/runner-registry";
import { ensureStarted } from "./startup";

/**
 * The server's start-up: database, chain, then the background jobs. Failures (bad
 * configuration, unreachable database, anvil that will not start) stop the server with one line
 * and a non-zero exit code instead of serving errors.
 */
export async function startOrExit(): Promise<void> {
  try {
    await ensureStarted();
    await startJobs();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`bsc-pay: cannot start: ${message.split("\n")[0]}`);
    process.exit(1);
  }
  const ready = readyLine();
  // Deliberately console, like the demo merchant's block: Next.js says "Ready" when it listens,
  // seconds before the database, the embedded chain and the demo merchant are; this is the real one.
  if (ready) console.log(ready);
}

/** With the embedded chain (a developer's `npm run dev`): the line that says everything is up, and where the demo sign-in is. */
export function readyLine(): string | null {
  const config = getConfig();
  if (config.localChain === null) return null;
  return `BSC Pay is ready at ${config.siteUrl}: database, local chain and jobs are up (the demo merchant's sign-in: ${config.localChain.stateDir}/demo-merchant.txt)`;
}
