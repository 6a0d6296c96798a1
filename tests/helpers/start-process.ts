// Runs the server's start-up sequence in a child process, exactly as instrumentation.ts does.
import { startOrExit } from "@/lib/ops/startup/start-or-exit";

void startOrExit().then(() => {
  console.log("started");
  process.exit(0);
});
