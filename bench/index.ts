// `npm run bench`: every benchmark in turn, each printing its own figures.
import { execFileSync } from "node:child_process";

const benches = [
  "bench/hd.ts",
  "bench/api.ts",
  "bench/engine.ts",
  "bench/withdrawals.ts",
  "bench/checkout.ts",
  "bench/webhooks.ts",
  "bench/detection.ts",
  "bench/instances.ts",
  "bench/history.ts",
];
for (const file of benches) {
  console.log(`\n== ${file}`);
  execFileSync(process.execPath, ["--import", "tsx", file], {
    stdio: "inherit",
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
  });
}
