/** The process's one embedded runner (JOBS=embedded): started once, stopped on shutdown, its state for /api/health. */

import { getConfig } from "../../base/config";
import { log } from "../../base/log";
import { getDatabase } from "../../db";
import type { HeadFollower } from "../../engine/scanner/head-follower";
import { type EmbeddedRunner, type RunnerState, startEmbeddedRunner } from "./embedded-runner";

const RUNNER_KEY = Symbol.for("bsc-pay.runner");
type Holder = { [RUNNER_KEY]?: EmbeddedRunner };

/** Starts the embedded runner once per process (JOBS=embedded); Inngest mode runs none here. */
export async function startJobs(): Promise<void> {
  const holder = globalThis as Holder;
  if (holder[RUNNER_KEY] || getConfig().jobs.mode !== "embedded") return;
  holder[RUNNER_KEY] = startEmbeddedRunner(await getDatabase());
  log.info("embedded job runner started");
}

export async function stopJobs(): Promise<void> {
  const holder = globalThis as Holder;
  const runner = holder[RUNNER_KEY];
  delete holder[RUNNER_KEY];
  await runner?.stop();
}

export function runnerState(): RunnerState | null {
  return (globalThis as Holder)[RUNNER_KEY]?.state ?? null;
}

/** The network's new-heads follower, while this process leads and the network offers WebSocket. */
export function runnerFollower(network: string): HeadFollower | null {
  return (globalThis as Holder)[RUNNER_KEY]?.followers.get(network) ?? null;
}
