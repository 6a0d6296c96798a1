/**
 * JOBS=embedded: the jobs run in this process, built from the schedule (schedule.ts): one loop per
 * `embedded.loop` — the scanner every SCAN_INTERVAL_MS, the work loop (expiry, planning,
 * forwarding, the ledger's round and withdrawal confirmation, in that order) every second, the
 * webhook sender every 250 ms, the reconciliation check every ten minutes — each tick taking one
 * round of the loop's jobs (steps.ts). Only the process that holds the database's advisory lock
 * runs them, so several instances never work twice. While it leads, it also follows each
 * network's new heads over WebSocket where the network offers one (lib/engine/scanner/head-follower.ts):
 * a new head starts a scan round at once (and again every 75 ms, for up to a second, while the
 * HTTP node does not serve that head yet: head-catch-up.ts), the poll every SCAN_INTERVAL_MS stays
 * the backstop.
 */

import { getConfig } from "../../base/config";
import { log } from "../../base/log";
import type { DatabaseHandle } from "../../db/client";
import { NotificationPump } from "../../domain/notifications/pump";
import { listNetworks, wsUrlsOf } from "../../engine/chain/networks";
import { errorText } from "../../engine/chain/rpc-errors";
import { publicScanError } from "../../engine/scanner/cursor";
import { HeadFollower } from "../../engine/scanner/head-follower";
import { HeadCatchUp } from "./head-catch-up";
import { runLimited } from "./run-limited";
import { type EmbeddedLoop, embeddedLoops, type LoopJobName, SCHEDULE } from "./schedule";
import {
  dueForwardsStep,
  expireApprovalsStep,
  expireDueStep,
  forwardStep,
  planForwardsStep,
  reconcileIfDueStep,
  scanRoundStep,
  sendAwaitingRefundsStep,
  tendLedgerStep,
} from "./steps";

export const LEADER_LOCK_ID = 7_284_019_333;
/** The webhook sender's poll of the outbox (the dispatch job's interval). */
export const WEBHOOK_POLL_MS = SCHEDULE.dispatch.embedded.everyMs();

export interface RunnerState {
  mode: "embedded";
  leader: boolean;
  lastScanAt: string | null;
  lastWorkAt: string | null;
  lastError: string | null;
}

export interface EmbeddedRunner {
  state: RunnerState;
  /** The new-heads followers of the networks that offer WebSocket, while this process leads. */
  followers: ReadonlyMap<string, HeadFollower>;
  stop(): Promise<void>;
}

export function startEmbeddedRunner(handle: DatabaseHandle): EmbeddedRunner {
  let stopped = false;
  let checked = false;
  /**
   * Whether work may start now: false from the moment the lock's connection closes, not only at the
   * next tick's check. A job loses leadership between two pieces of work, never inside one: each
   * step records before it acts, so one cut off here is resumed by the next leader like any other.
   */
  const leading = () => !stopped && checked && handle.leads(LEADER_LOCK_ID);
  const state: RunnerState = {
    mode: "embedded",
    get leader() {
      return leading();
    },
    lastScanAt: null,
    lastWorkAt: null,
    lastError: null,
  };
  const { db } = handle;
  const { scan, forward, dispatch, reconcile } = SCHEDULE;
  const webhooks = new NotificationPump(db, dispatch.embedded.pageSize, dispatch.embedded.leaseMs);
  const wakers = new LoopWakers();
  const followers = new Map<string, HeadFollower>();
  const catchUp = new HeadCatchUp(() => wakers.wake("scan"));
  /** Heads followed only while leading: another process's scanner needs no wake-ups from here. */
  const followHeads = (leads: boolean) => {
    if (!leads || stopped) {
      for (const follower of followers.values()) follower.stop();
      followers.clear();
      catchUp.stop();
      return;
    }
    for (const network of listNetworks()) {
      const urls = wsUrlsOf(network);
      if (urls.length === 0 || followers.has(network.name)) continue;
      const onHead = (block: bigint) => {
        catchUp.announce(network.name, block);
        wakers.wake("scan");
      };
      followers.set(network.name, new HeadFollower(network.name, urls, onHead).start());
    }
  };

  /** One round of each job that has a loop of its own (deliveries are started by the dispatch job's pump). */
  const rounds: Record<LoopJobName, () => Promise<unknown>> = {
    scan: async () => {
      const round = await scanRoundStep(db, scan.embedded.pageSize, {
        // Payments just recorded have their events in the outbox: send them now, not next tick.
        afterRange: (range) => {
          if (range.transfers > 0) webhooks.pump().catch(() => {});
          // What the poll saw tells a follower whether its subscription went silent, and whether the
          // HTTP node has caught up with the head the socket announced.
          if (range.head !== null) {
            followers.get(range.network)?.notePolledHead(BigInt(range.head));
            catchUp.served(range.network, BigInt(range.head));
          }
        },
      });
      for (const { network, error } of round.failed) state.lastError = `scan ${network}: ${error}`;
    },
    expire: () => expireDueStep(db),
    requeue: () => planForwardsStep(db),
    forward: async () => {
      const due = await dueForwardsStep(db, forward.embedded.pageSize);
      await runLimited(due, forward.embedded.parallel, (f) => forwardStep(db, f.forwardId), leading);
    },
    ledger: () => tendLedgerStep(db),
    refunds: () => sendAwaitingRefundsStep(db, SCHEDULE.refunds.embedded.pageSize),
    approvals: () => expireApprovalsStep(db, SCHEDULE.approvals.embedded.pageSize),
    dispatch: () => webhooks.pump(),
    reconcile: () => reconcileIfDueStep(db, reconcile.embedded.minGapMs),
  };
  const finished: Partial<Record<EmbeddedLoop, () => void>> = {
    scan: () => {
      state.lastScanAt = new Date().toISOString();
    },
    work: () => {
      state.lastWorkAt = new Date().toISOString();
    },
  };

  const loops = embeddedLoops(getConfig()).map(({ loop, everyMs, jobs }) =>
    (async () => {
      while (!stopped) {
        const started = Date.now();
        try {
          const leads = await handle.holdsLeadership(LEADER_LOCK_ID);
          checked = true;
          if (loop === "scan") followHeads(leads);
          if (leads) {
            for (const job of jobs) if (leading()) await rounds[job]();
            if (leading()) finished[loop]?.();
          }
        } catch (error) {
          state.lastError = `${loop}: ${publicScanError(error)}`;
          log.warn({ err: errorText(error), loop }, "job loop error");
        }
        if (!stopped) await wakers.sleep(loop, Math.max(50, everyMs - (Date.now() - started)));
      }
    })(),
  );

  return {
    state,
    followers,
    stop: async () => {
      stopped = true;
      followHeads(false);
      wakers.wakeAll();
      await Promise.allSettled(loops);
      await webhooks.stop();
    },
  };
}

/**
 * The loops' pauses, each cut short by a wake-up (a new head for the scan loop). A wake-up that
 * comes while the loop is busy is kept: the loop goes round again at once instead of pausing.
 */
class LoopWakers {
  private readonly sleeping = new Map<EmbeddedLoop, () => void>();
  private readonly woken = new Set<EmbeddedLoop>();

  async sleep(loop: EmbeddedLoop, ms: number): Promise<void> {
    if (this.woken.delete(loop)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleeping.delete(loop);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleeping.set(loop, done);
    });
    this.woken.delete(loop);
  }

  wake(loop: EmbeddedLoop): void {
    const sleeper = this.sleeping.get(loop);
    if (sleeper) sleeper();
    else this.woken.add(loop);
  }

  wakeAll(): void {
    for (const sleeper of [...this.sleeping.values()]) sleeper();
  }
}
