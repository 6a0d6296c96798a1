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
}
