/**
 * Job leadership on PostgreSQL (docs/design.md §2, §20: one leader per database, failover within 10 s,
 * nothing sent twice): two embedded runners on one database, each with pools of its own, as two
 * instances have. The leader's lock session is terminated, or its connection stalls, while the
 * process lives on: it stops leading, the other takes over within the bound, and at no sampled
 * moment do both believe they lead. PostgreSQL only: PGlite is one process and always leads.
 */
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openPostgres } from "@/lib/db/client";
import { LEADERSHIP_PROBE_TIMEOUT_MS } from "@/lib/db/leadership";
import { rowsOf } from "@/lib/db/rows";
import { type EmbeddedRunner, LEADER_LOCK_ID, startEmbeddedRunner } from "@/lib/ops/jobs/embedded-runner";
import { useConfig } from "../helpers/config";
import { createTestDatabase } from "../helpers/database";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";

const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
const FAILOVER_MS = 10_000;
let shared: DatabaseHandle & { url?: string };
let opened: { handle: DatabaseHandle; runner: EmbeddedRunner }[] = [];
let proxy: TcpProxy | null = null;

beforeAll(async () => {
  if (!POSTGRES) return;
  shared = await createTestDatabase();
  useConfig({ LOCAL_CHAIN: "off", NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
});
afterEach(async () => {
  await Promise.all(
    opened.map(async ({ handle, runner }) => {
      await runner.stop();
      await handle.close();
    }),
  );
  opened = [];
  await proxy?.close();
  proxy = null;
});
afterAll(async () => {
  await shared?.close();
});

/** A runner on a pool of its own, as another instance would have. */
function instance(url: string): EmbeddedRunner {
  const handle = openPostgres(url, { max: 3 });
  const runner = startEmbeddedRunner(handle);
  opened.push({ handle, runner });
  return runner;
}

/** The session holding the leader lock now, as PostgreSQL sees it. */
async function lockSession(): Promise<{ pid: number; clientPort: number } | null> {
  const [row] = rowsOf<{ pid: number; client_port: number }>(
    await shared.db.execute(sql`
      select l.pid, a.client_port from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted and l.objsubid = 1
        and ((l.classid::bigint << 32) | l.objid::bigint) = ${LEADER_LOCK_ID}::bigint`),
  );
  return row ? { pid: row.pid, clientPort: row.client_port } : null;
}

/** Who believes it leads, every 50 ms for `ms`. */
async function sampleLeaders(runners: EmbeddedRunner[], ms: number): Promise<boolean[][]> {
  const samples: boolean[][] = [];
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    samples.push(runners.map((r) => r.state.leader));
  }
  return samples;
}
const twoAtOnce = (samples: boolean[][]) => samples.filter((s) => s.filter(Boolean).length > 1);

describe.skipIf(!POSTGRES)("job leadership on PostgreSQL", () => {
  it("a leader whose lock session is terminated stops leading at once, and one other process takes over", async () => {
    const a = instance(shared.url ?? "");
    await expect.poll(() => a.state.leader, { timeout: 10_000 }).toBe(true);
    const b = instance(shared.url ?? "");
    await new Promise((r) => setTimeout(r, 600)); // B has tried, and was refused
    expect(b.state.leader).toBe(false);
    const before = await lockSession();
    if (!before) throw new Error("nobody holds the lock");

    const sampling = sampleLeaders([a, b], 5_000);
    await shared.db.execute(sql`select pg_terminate_backend(${before.pid})`);
    const terminatedAt = Date.now();
    // Noticed on the connection's close, not at a later check; and the old session is gone for good.
    await expect.poll(() => a.state.leader, { timeout: 2_000, interval: 10 }).toBe(false);
    await expect.poll(async () => (await lockSession())?.pid ?? before.pid, { timeout: FAILOVER_MS, interval: 50 }).not.toBe(before.pid);
    await expect.poll(() => [a, b].filter((r) => r.state.leader).length, { timeout: 2_000, interval: 20 }).toBe(1);
    expect(Date.now() - terminatedAt).toBeLessThanOrEqual(FAILOVER_MS);

    const samples = await sampling;
    expect(twoAtOnce(samples)).toEqual([]);
    expect(samples.at(-1)?.filter(Boolean)).toHaveLength(1);
  });

  it("a leader whose lock connection stalls gives the lock up (its session terminated), and one leads again within 10 s", async () => {
    proxy = await startTcpProxy(shared.url ?? "");
    const a = instance(proxy.url);
    await expect.poll(() => a.state.leader, { timeout: 10_000 }).toBe(true);
    const b = instance(shared.url ?? "");
    await new Promise((r) => setTimeout(r, 600));
    expect(b.state.leader).toBe(false);
    const before = await lockSession();
    if (!before) throw new Error("nobody holds the lock");

    const sampling = sampleLeaders([a, b], LEADERSHIP_PROBE_TIMEOUT_MS + 2_000);
    // The path to the lock's session goes dead; the session itself lives on, holding the lock,
    // and would hold it for ever (the proxy answers PostgreSQL's keepalives) unless A ends it.
    expect(proxy.stall(before.clientPort)).toBe(true);
    const stalledAt = Date.now();
    // A gives up when its check times out and ends the stalled session; then one leads again on a
    // new session (B, or A itself over a fresh connection: either is one leader).
    await expect.poll(async () => (await lockSession())?.pid ?? before.pid, { timeout: FAILOVER_MS, interval: 50 }).not.toBe(before.pid);
    await expect.poll(() => [a, b].filter((r) => r.state.leader).length, { timeout: 2_000, interval: 20 }).toBe(1);
    expect(Date.now() - stalledAt).toBeLessThanOrEqual(FAILOVER_MS);

    const samples = await sampling;
    expect(twoAtOnce(samples)).toEqual([]);
    // A believed it led until its check gave up (nobody else could take the lock meanwhile).
    expect(samples.slice(0, 10).every(([leadsA]) => leadsA)).toBe(true);
  });
});
