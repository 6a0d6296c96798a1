import { errorText } from "../chain/rpc-errors";
import { getConfig } from "../config";
import type { DatabaseHandle } from "../db/client";
import { log } from "../log";
import { publicScanError } from "../scanner/scanner";
import { WebhookPump } from "../webhooks/pump";
import {
  confirmWithdrawalsStep,
  dueForwardsStep,
  expireDueStep,
  forwardStep,
  planForwardsStep,
  reconcileIfDueStep,
  scanRoundStep,
} from "./steps";

/**
 * JOBS=embedded: the job steps run in this process, on three loops — the scanner every
 * SCAN_INTERVAL_MS, the work loop (expiry, forwarding, withdrawal confirmation) every second, and
 * the webhook sender, which polls the outbox every WEBHOOK_POLL_MS. Only the process that
 * holds the database's advisory lock runs them, so several instances never work twice.
 */
export const LEADER_LOCK_ID = 7_284_019_333;
const MAX_RANGES_PER_TICK = 20;
const FORWARD_CONCURRENCY = 4;
export const WEBHOOK_POLL_MS = 250;
/** The daily reconciliation is checked for this often (it runs when the last is a day old). */
const RECONCILE_CHECK_MS = 10 * 60 * 1000;

export interface RunnerState {
  mode: "embedded";
  leader: boolean;
  lastScanAt: string | null;
  lastWorkAt: string | null;
  lastError: string | null;
}

export interface EmbeddedRunner {
  state: RunnerState;
  stop(): Promise<void>;
}

export function startEmbeddedRunner(handle: DatabaseHandle): EmbeddedRunner {
  const state: RunnerState = { mode: "embedded", leader: false, lastScanAt: null, lastWorkAt: null, lastError: null };
  let stopped = false;
  const loops: Promise<void>[] = [];
  const webhooks = new WebhookPump(handle.db);

  const loop = (name: string, intervalMs: number, body: () => Promise<void>) =>
    (async () => {
      while (!stopped) {
        const started = Date.now();
        try {
          state.leader = await handle.holdsLeadership(LEADER_LOCK_ID);
          if (state.leader) await body();
        } catch (error) {
          state.lastError = `${name}: ${publicScanError(error)}`;
          log.warn({ err: errorText(error), loop: name }, "job loop error");
        }
        await sleep(Math.max(50, intervalMs - (Date.now() - started)), () => stopped);
      }
    })();

  loops.push(
    loop("scan", getConfig().scanIntervalMs, async () => {
      const round = await scanRoundStep(handle.db, MAX_RANGES_PER_TICK, {
        // Payments just recorded have their events in the outbox: send them now, not next tick.
        afterRange: (range) => {
          if (range.transfers > 0) webhooks.pump().catch(() => {});
        },
      });
      for (const { network, error } of round.failed) state.lastError = `scan ${network}: ${error}`;
      state.lastScanAt = new Date().toISOString();
    }),
    loop("work", 1000, async () => {
      await expireDueStep(handle.db);
      await planForwardsStep(handle.db);
      const due = await dueForwardsStep(handle.db, 20);
      await runLimited(due, FORWARD_CONCURRENCY, (f) => forwardStep(handle.db, f.forwardId));
      await confirmWithdrawalsStep(handle.db);
      state.lastWorkAt = new Date().toISOString();
    }),
    loop("webhooks", WEBHOOK_POLL_MS, async () => {
      await webhooks.pump();
    }),
    loop("reconcile", RECONCILE_CHECK_MS, async () => {
      await reconcileIfDueStep(handle.db);
    }),
  );

  return {
    state,
    stop: async () => {
      stopped = true;
      await Promise.allSettled(loops);
      await webhooks.stop();
    },
  };
}

async function runLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!).catch(() => {});
  });
  await Promise.all(workers);
}

async function sleep(ms: number, cancelled: () => boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!cancelled() && Date.now() < end) await new Promise((r) => setTimeout(r, Math.min(100, end - Date.now())));
}
