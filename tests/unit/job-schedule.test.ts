/**
 * The job schedule (lib/ops/jobs/schedule.ts) is complete and consistent, and both drivers are built
 * from it: every Inngest function comes from one declaration and carries its id, trigger,
 * concurrency and retries; the embedded runner's loops are the declarations' loops. The last block
 * pins today's values, which deployed Inngest apps and operators rely on.
 */
import { describe, expect, it, vi } from "vitest";
import { forwardRequested, webhookDue } from "@/inngest/events";
import { functions } from "@/inngest/functions";
import { CONCURRENCY_KEYS } from "@/inngest/job-function";
import { parseConfig } from "@/lib/base/config";
import { IN_FLIGHT_PER_ENDPOINT, LEASE_MS } from "@/lib/domain/webhooks/dispatch";
import { embeddedLoops, JOBS, type JobDeclaration, type Pause, SCHEDULE } from "@/lib/ops/jobs/schedule";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const config = parseConfig({ NODE_ENV: "test", SCAN_INTERVAL_MS: "1500" });
const PAUSES: Pause[] = ["at-once", "next-round", "recorded", "done"];
const isCron = (job: JobDeclaration) => "cron" in job.inngest.trigger;

/** What Inngest is given for a job, derived from its declaration by hand (not by the adapter). */
function expectedOptions(job: JobDeclaration) {
  const { trigger, retries } = job.inngest;
  const c = job.concurrency;
  return {
    id: job.id,
    triggers: "cron" in trigger ? [{ cron: trigger.cron }] : [expect.objectContaining({ name: trigger.event })],
    ...(c.key === "singleton" || c.key === "network"
      ? { singleton: { mode: "skip" } }
      : { concurrency: { limit: c.limit, key: c.key === "deposit-address" ? "event.data.fromAddress" : "event.data.endpointId" } }),
    ...(retries === undefined ? {} : { retries }),
  };
}

describe("the job schedule", () => {
  it("declares each job once: ids unique", () => {
    const ids = JOBS.map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(JOBS.map((j) => j.name)).toEqual(Object.keys(SCHEDULE));
  });

  it("every Inngest function comes from a declaration, and every declaration has its function", () => {
    expect(functions.map((f) => f.id()).sort()).toEqual(JOBS.map((j) => j.id).sort());
  });

  it.each(JOBS)("$id: the Inngest function's config is the declaration's", (job) => {
    const fn = functions.find((f) => f.id() === job.id);
    expect(fn?.opts).toEqual(expectedOptions(job));
  });

  it("the events carry the declared names", () => {
    expect(forwardRequested.name).toBe(SCHEDULE.forward.inngest.trigger.event);
    expect(webhookDue.name).toBe(SCHEDULE.deliver.inngest.trigger.event);
  });

  it.each(JOBS)("$id: intervals, rounds and pages are positive, pauses known", (job) => {
    const { rounds, everyMs, pageSize, leaseMs, minGapMs } = job.inngest;
    expect(Number.isInteger(rounds) && rounds >= 1).toBe(true);
    // Rounds that go again at the next round need the pause between them (a recorded pause names its own time).
    const waitsForNextRound = Object.values(job.pause).some((p) => p === "next-round" || p === "at-once");
    if (rounds > 1 && waitsForNextRound) expect(everyMs).toBeGreaterThan(0);
    for (const value of [pageSize, leaseMs, minGapMs]) if (value !== undefined) expect(value).toBeGreaterThan(0);
    if ("loop" in job.embedded) {
      expect(job.embedded.everyMs(config)).toBeGreaterThan(0);
      for (const value of [job.embedded.pageSize, job.embedded.parallel, job.embedded.leaseMs, job.embedded.minGapMs])
        if (value !== undefined) expect(value).toBeGreaterThan(0);
    } else {
      // Started by another job's round: that job has a loop.
      const by = JOBS.find((j) => j.id === (job.embedded as { startedBy: string }).startedBy);
      expect(by && "loop" in by.embedded).toBe(true);
    }
    expect(Object.keys(job.pause).length).toBeGreaterThan(0);
    for (const pause of Object.values(job.pause)) expect(PAUSES).toContain(pause);
  });

  it.each(JOBS.filter((j) => isCron(j) && (j.inngest.trigger as { cron: string }).cron === "* * * * *"))(
    "$id: a per-minute run fits in its minute (its pauses add up to less than one)",
    (job) => {
      expect((job.inngest.rounds - 1) * (job.inngest.everyMs ?? 0)).toBeLessThan(60_000);
    },
  );

  it.each(JOBS)("$id: crons run one at a time; event-driven runs are limited per key", (job) => {
    if (isCron(job)) expect(["singleton", "network"]).toContain(job.concurrency.key);
    else expect(Object.keys(CONCURRENCY_KEYS)).toContain(job.concurrency.key);
  });

  it("the embedded runner's loops: one interval per loop, jobs in the schedule's order", () => {
    expect(embeddedLoops(config)).toEqual([
      { loop: "scan", everyMs: 1500, jobs: ["scan"] },
      { loop: "work", everyMs: 1000, jobs: ["expire", "requeue", "forward", "ledger", "refunds", "approvals"] },
      { loop: "webhooks", everyMs: 250, jobs: ["dispatch"] },
      { loop: "reconcile", everyMs: 600_000, jobs: ["reconcile"] },
    ]);
    for (const { embedded } of JOBS)
      if ("loop" in embedded) expect(embedded.everyMs(config)).toBe(embeddedLoops(config).find((l) => l.loop === embedded.loop)?.everyMs);
  });
});

describe("today's values (deployed Inngest apps know the ids, crons and events)", () => {
  it("Inngest: ids, triggers, concurrency, retries, rounds, pauses, pages", () => {
    const inngest = Object.fromEntries(JOBS.map((j) => [j.id, { ...j.inngest, concurrency: j.concurrency }]));
    expect(inngest).toEqual({
      "scan-chains": {
        trigger: { cron: "* * * * *" },
        rounds: 25,
        everyMs: 2000,
        pageSize: 20,
        retries: 0,
        concurrency: { key: "network" },
      },
      "expire-sessions": { trigger: { cron: "* * * * *" }, rounds: 1, concurrency: { key: "singleton" } },
      "requeue-forwards": { trigger: { cron: "* * * * *" }, rounds: 1, pageSize: 200, concurrency: { key: "singleton" } },
      "forward-deposit": {
        trigger: { event: "bsc-pay/forward.requested" },
        rounds: 20,
        retries: 3,
        concurrency: { key: "deposit-address", limit: 1 },
      },
      "tend-ledger": { trigger: { cron: "* * * * *" }, rounds: 10, everyMs: 5000, concurrency: { key: "singleton" } },
      "send-awaiting-refunds": { trigger: { cron: "* * * * *" }, rounds: 1, pageSize: 20, concurrency: { key: "singleton" } },
      "expire-approvals": { trigger: { cron: "* * * * *" }, rounds: 1, pageSize: 100, concurrency: { key: "singleton" } },
      "dispatch-webhooks": {
        trigger: { cron: "* * * * *" },
        rounds: 25,
        everyMs: 2000,
        pageSize: 200,
        leaseMs: 120_000,
        retries: 0,
        concurrency: { key: "singleton" },
      },
      "deliver-webhook": {
        trigger: { event: "bsc-pay/webhook.due" },
        rounds: 1,
        retries: 0,
        concurrency: { key: "endpoint", limit: IN_FLIGHT_PER_ENDPOINT },
      },
      "reconcile-daily": {
        trigger: { cron: "0 4 * * *" },
        rounds: 1,
        minGapMs: 23 * 3600_000,
        retries: 1,
        concurrency: { key: "singleton" },
      },
    });
  });

  it("embedded: pages, parallelism, lease and the reconciliation's period", () => {
    const { everyMs: _scan, ...scan } = SCHEDULE.scan.embedded;
    expect(scan).toEqual({ loop: "scan", pageSize: 20 });
    const { everyMs: _forward, ...forward } = SCHEDULE.forward.embedded;
    expect(forward).toEqual({ loop: "work", pageSize: 20, parallel: 4 });
    const { everyMs: _dispatch, ...dispatch } = SCHEDULE.dispatch.embedded;
    expect(dispatch).toEqual({ loop: "webhooks", pageSize: 32, leaseMs: LEASE_MS });
    expect(SCHEDULE.deliver.embedded).toEqual({ startedBy: "dispatch-webhooks" });
    const { everyMs: _refunds, ...refunds } = SCHEDULE.refunds.embedded;
    expect(refunds).toEqual({ loop: "work", pageSize: 20 });
    const { everyMs: _reconcile, ...reconcile } = SCHEDULE.reconcile.embedded;
    expect(reconcile).toEqual({ loop: "reconcile", minGapMs: 24 * 3600_000 });
  });

  it("pauses per outcome", () => {
    expect(Object.fromEntries(JOBS.map((j) => [j.id, j.pause]))).toEqual({
      "scan-chains": { behind: "at-once", "caught-up": "next-round", failed: "next-round" },
      "expire-sessions": { done: "next-round" },
      "requeue-forwards": { done: "next-round" },
      "forward-deposit": {
        completed: "done",
        held: "done",
        waiting: "recorded",
        "not-due": "recorded",
        busy: "recorded",
        "gas-tank-low": "recorded",
        retry: "recorded",
      },
      "tend-ledger": { pending: "next-round", settled: "done" },
      "send-awaiting-refunds": { done: "next-round" },
      "expire-approvals": { done: "next-round" },
      "dispatch-webhooks": { claimed: "next-round", none: "next-round" },
      "deliver-webhook": { delivered: "done", retrying: "recorded", failed: "done", skipped: "done" },
      "reconcile-daily": { ran: "next-round", "not-due": "next-round" },
    });
  });
});
