/**
 * The job schedule: every job the engine runs, declared once — how often a round comes, how many
 * items one round takes, what may run beside it, and when it goes again after each outcome. Both
 * drivers are built from it: the embedded runner (embedded-runner.ts) runs one loop per
 * `embedded.loop`, and each Inngest function (inngest/functions/) takes its id, trigger,
 * concurrency, retries, rounds and pauses from here; so do the test helpers
 * (tests/helpers/engine.ts). What one round does is in steps.ts, shared by both drivers.
 *
 * The values are the service's: change one here and every driver follows. Function ids and event
 * names are known to deployed Inngest apps: never rename them.
 */

import type { Config } from "../../base/config";
import type { AttemptOutcome } from "../../domain/notifications/channel";
import { IN_FLIGHT_PER_ENDPOINT, LEASE_MS } from "../../domain/webhooks/dispatch";
import type { ForwardOutcome } from "../../engine/forwarding/forwarder";

/** What may run beside what: the job's concurrency key. */
export type Concurrency =
  /** One run at a time; under Inngest a run due while the last still goes is skipped (singleton). */
  | { key: "singleton" }
  /** One run at a time, and within it each network on its own: one network's failure never stops another's round. */
  | { key: "network" }
  /** At most `limit` items of one deposit address (forwards) or one webhook endpoint (deliveries) at a time. */
  | { key: "deposit-address" | "endpoint"; limit: number };

/** When a job goes again after an outcome. */
export type Pause =
  /** At once, with the next range or item, up to the round's page size; past the page, at the next round. */
  | "at-once"
  /** At the next round: the driver's interval (`embedded.everyMs`; `inngest.everyMs` between the rounds of a run). */
  | "next-round"
  /** When the item's own recorded schedule says: a forward's askAgainAt, a delivery's next attempt. */
  | "recorded"
  /** Nothing left for this run; the next one (tick, cron or event) takes it up if there is more. */
  | "done";

/** The embedded runner's loops: a loop's jobs go one after another, in the schedule's order. */
export type EmbeddedLoop = "scan" | "work" | "webhooks" | "reconcile";

/** How the embedded runner (JOBS=embedded) drives a job: one round per tick of its loop. */
export type EmbeddedDriving =
  | {
      loop: EmbeddedLoop;
      /** From the start of one round to the start of the next (every job of a loop says the same). */
      everyMs: (config: Config) => number;
      /** Items one round takes (ranges per network, due forwards, deliveries in flight); absent: all that are due. */
      pageSize?: number;
      /** Items of a page in progress at once; absent: one after another. */
      parallel?: number;
      /** A claimed item is leased this long (webhook deliveries). */
      leaseMs?: number;
      /** A round does the work only when its last run is at least this old (the reconciliation). */
      minGapMs?: number;
    }
  /** No loop of its own: another job's round starts each of its items as it claims them. */
  | { startedBy: string };

/** How an Inngest function (JOBS=inngest) drives a job: a run of up to `rounds` rounds, each a step. */
export interface InngestDriving {
  /** A cron (minute-granular) or an event another function sends. */
  trigger: { cron: string } | { event: string };
  /** At most this many rounds per run: a poller goes round within its minute, a forward takes several attempts. */
  rounds: number;
  /** The pause between two rounds of a run ("next-round"). */
  everyMs?: number;
  pageSize?: number;
  leaseMs?: number;
  minGapMs?: number;
  /** Inngest's retries of a failed step; absent: Inngest's default. */
  retries?: 0 | 1 | 2 | 3;
}

export interface JobDeclaration {
  /** Unique; the Inngest function's id. */
  id: string;
  /** What one round does. */
  does: string;
  concurrency: Concurrency;
  /** The pause after each outcome of a round (or of one range or item within it). */
  pause: Readonly<Record<string, Pause>>;
  embedded: EmbeddedDriving;
  inngest: InngestDriving;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const EVERY_MINUTE = "* * * * *";
/** The embedded runner's work loop: expiry, forwarding and the ledger's round go round once a second. */
const WORK_TICK_MS = SECOND;
/** The reconciliation's period; the Inngest cron is at a fixed hour and gets an hour's slack, so a run a minute late still counts. */
export const RECONCILE_EVERY_MS = 24 * 60 * MINUTE;

export const SCHEDULE = {
  scan: {
    id: "scan-chains",
    does: "each network: the next ranges of Transfer logs up to the confirmed head, then the sweeps its new deposits made due",
    concurrency: { key: "network" },
    pause: { behind: "at-once", "caught-up": "next-round", failed: "next-round" },
    embedded: { loop: "scan", everyMs: (config) => config.scanIntervalMs, pageSize: 20 },
    // Cron is minute-granular, payments must be seen within seconds: 25 rounds 2 s apart within each minute.
    inngest: { trigger: { cron: EVERY_MINUTE }, rounds: 25, everyMs: 2 * SECOND, pageSize: 20, retries: 0 },
  },
  expire: {
    id: "expire-sessions",
    does: "expires the sessions past their expiry, re-prices a page of late deposits of expired fiat sessions at their block's rate, and folds the payout address changes past their date (reads are exact anyway)",
    concurrency: { key: "singleton" },
    pause: { done: "next-round" },
    embedded: { loop: "work", everyMs: () => WORK_TICK_MS },
    inngest: { trigger: { cron: EVERY_MINUTE }, rounds: 1 },
  },
  requeue: {
    id: "requeue-forwards",
    does: "plans the sweeps of deposits still flagged (a crash between recording and planning); under Inngest also hands every due forward to forward-deposit again",
    concurrency: { key: "singleton" },
    pause: { done: "next-round" },
    embedded: { loop: "work", everyMs: () => WORK_TICK_MS },
    inngest: { trigger: { cron: EVERY_MINUTE }, rounds: 1, pageSize: 200 },
  },
  forward: {
    id: "forward-deposit",
    does: "one step of one forward (top-up, sweep, batch or check), if it is due",
    concurrency: { key: "deposit-address", limit: 1 },
    pause: {
      completed: "done",
      held: "done",
      waiting: "recorded",
      "not-due": "recorded",
      busy: "recorded",
      "gas-tank-low": "recorded",
      retry: "recorded",
    } satisfies Record<ForwardOutcome, Pause>,
    // The embedded runner asks the database for due forwards each tick (one per deposit address), four at a time.
    embedded: { loop: "work", everyMs: () => WORK_TICK_MS, pageSize: 20, parallel: 4 },
    // One forward per run; one still open after the last attempt is requeued once it is due.
    inngest: { trigger: { event: "bsc-pay/forward.requested" }, rounds: 20, retries: 3 },
  },
  ledger: {
    id: "tend-ledger",
    does: "the ledger's round (open transactions settled or sent again, stuck wallets re-priced, sweep-contract transactions settled), then submitted withdrawals completed or failed, then payout batches' chunks settled and their pending items sent",
    concurrency: { key: "singleton" },
    pause: { pending: "next-round", settled: "done" },
    embedded: { loop: "work", everyMs: () => WORK_TICK_MS },
    inngest: { trigger: { cron: EVERY_MINUTE }, rounds: 10, everyMs: 5 * SECOND },
  },
  refunds: {
    id: "send-awaiting-refunds",
    does: "sends the refunds awaiting funds whose withdrawal wallet can pay now (each re-checked at most every 30 s, longest-unchecked first); notes why the others still wait",
    concurrency: { key: "singleton" },
    pause: { done: "next-round" },
    embedded: { loop: "work", everyMs: () => WORK_TICK_MS, pageSize: 20 },
    inngest: { trigger: { cron: EVERY_MINUTE }, rounds: 1, pageSize: 20 },
  },
  approvals: {
    id: "expire-approvals",
    does: "expires the money-out approvals nobody decided within 72 h (a page, oldest first): their withdrawals and refunds are rejected, never sent",
    concurrency: { key: "singleton" },
    pause: { done: "next-round" },
    embedded: { loop: "work", everyMs: () => WORK_TICK_MS, pageSize: 100 },
    inngest: { trigger: { cron: EVERY_MINUTE }, rounds: 1, pageSize: 100 },
  },
  dispatch: {
    id: "dispatch-webhooks",
    does: "leases the webhook deliveries that are due and starts each (embedded) or hands each to deliver-webhook (Inngest)",
    concurrency: { key: "singleton" },
    pause: { claimed: "next-round", none: "next-round" },
    // The embedded pump keeps up to 32 deliveries going and claims again as soon as one finishes.
    embedded: { loop: "webhooks", everyMs: () => 250, pageSize: 32, leaseMs: LEASE_MS },
    // A leased delivery waits in Inngest's queue before its run starts: a longer lease than in-process.
    inngest: { trigger: { cron: EVERY_MINUTE }, rounds: 25, everyMs: 2 * SECOND, pageSize: 200, leaseMs: 2 * MINUTE, retries: 0 },
  },
  deliver: {
    id: "deliver-webhook",
    does: "one attempt of one delivery; its retry schedule is recorded on the delivery (claimed again when due), not Inngest's",
    concurrency: { key: "endpoint", limit: IN_FLIGHT_PER_ENDPOINT },
    pause: { delivered: "done", retrying: "recorded", failed: "done", skipped: "done" } satisfies Record<AttemptOutcome, Pause>,
    embedded: { startedBy: "dispatch-webhooks" },
    inngest: { trigger: { event: "bsc-pay/webhook.due" }, rounds: 1, retries: 0 },
  },
  reconcile: {
    id: "reconcile-daily",
    does: "the ledger against the chain, when the last reconciliation is a day old; the result shows in /api/health and admin status",
    concurrency: { key: "singleton" },
    pause: { ran: "next-round", "not-due": "next-round" },
    embedded: { loop: "reconcile", everyMs: () => 10 * MINUTE, minGapMs: RECONCILE_EVERY_MS },
    inngest: { trigger: { cron: "0 4 * * *" }, rounds: 1, minGapMs: RECONCILE_EVERY_MS - 60 * MINUTE, retries: 1 },
  },
} as const satisfies Record<string, JobDeclaration>;

export type JobName = keyof typeof SCHEDULE;
/** The jobs with a loop of their own in the embedded runner. */
export type LoopJobName = { [K in JobName]: (typeof SCHEDULE)[K]["embedded"] extends { loop: EmbeddedLoop } ? K : never }[JobName];

/** Every job, in the schedule's order (the order a loop's jobs go in). */
export const JOBS: readonly (JobDeclaration & { name: JobName })[] = (Object.keys(SCHEDULE) as JobName[]).map((name) => ({
  name,
  ...SCHEDULE[name],
}));

/** The embedded runner's loops, in the schedule's order: each with its interval and its jobs in order. */
export function embeddedLoops(config: Config): { loop: EmbeddedLoop; everyMs: number; jobs: LoopJobName[] }[] {
  const loops = new Map<EmbeddedLoop, { loop: EmbeddedLoop; everyMs: number; jobs: LoopJobName[] }>();
  for (const job of JOBS) {
    if (!("loop" in job.embedded)) continue;
    const entry = loops.get(job.embedded.loop) ?? { loop: job.embedded.loop, everyMs: job.embedded.everyMs(config), jobs: [] };
    entry.jobs.push(job.name as LoopJobName); // it has a loop: checked just above
    loops.set(job.embedded.loop, entry);
  }
  return [...loops.values()];
}
