/**
 * Job leadership on PostgreSQL: a session-level advisory lock held on a connection of its own, and
 * proof on every check that *this* session still holds it.
 *
 * Why a client of its own and not a connection reserved from the pool: in postgres.js 3.4 a closed
 * connection goes back to the pool's closed queue (its `reserved` mark cleared), and the pool
 * reconnects that same object for the next query. A reserved handle's `select 1` then answers on a
 * new session that holds no lock (two leaders), or, with no traffic to reconnect it, writes to a
 * socket that is gone (an uncaught TypeError, and a check that never returns). Here the lock's
 * client has one connection and nothing else uses it; every check asks PostgreSQL whether the
 * session answering is the one that took the lock and still holds it.
 *
 * Losing it — the connection closed, a check that fails, times out, or finds another session — stops
 * the leadership at once (`leads` turns false on the close event itself) and ends that client for
 * good; the old session is also terminated through the main pool when it is still known, so a
 * session whose own connection stalled cannot keep the lock and leave the service leaderless.
 */
import { hostname } from "node:os";
import type postgres from "postgres";
import { log } from "../base/log";

/** A check not answered in this time counts as lost (the lock is then freed: failover stays ≤ 10 s). */
export const LEADERSHIP_PROBE_TIMEOUT_MS = 4_000;

type Connect = (options: postgres.Options<Record<string, postgres.PostgresType>>) => postgres.Sql;

export class AdvisoryLeadership {
  private sql: postgres.Sql | null = null;
  /** The session that took the lock: its backend pid and start (pids are reused; the pair is not). */
  private session: { pid: number; start: string } | null = null;
  private closedUnderUs = false;
  private checking: Promise<boolean> | null = null;
  private ended = false;

  constructor(
    private readonly lockId: number,
    private readonly connect: Connect,
    /** The main pool: terminates a lock session whose own connection stopped answering. */
    private readonly main: postgres.Sql,
  ) {}

  /** What the last check found, false from the moment the lock's connection closes. */
  get leads(): boolean {
    return this.session !== null && !this.closedUnderUs;
  }

  /** Takes the lock or proves it is still held by this very session; concurrent callers share one check. */
  holds(): Promise<boolean> {
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  async close(): Promise<void> {
    this.ended = true;
    await this.resign(false);
  }

  private async check(): Promise<boolean> {
    if (this.ended) return false;
    if (this.session) return this.confirm(this.session);
    return this.acquire();
  }

  private async confirm(session: { pid: number; start: string }): Promise<boolean> {
    const sql = this.sql;
    if (!sql || this.closedUnderUs) return this.lose("the lock's connection closed");
    try {
      const [row] = await withTimeout(
        sql<{ pid: number; held: boolean }[]>`
          select pg_backend_pid() as pid, exists(
            select 1 from pg_locks where locktype = 'advisory' and pid = pg_backend_pid() and granted
              and objsubid = 1 and ((classid::bigint << 32) | objid::bigint) = ${this.lockId}::bigint
          ) as held`,
        LEADERSHIP_PROBE_TIMEOUT_MS,
      );
      if (row?.pid === session.pid && row.held) return true;
      return this.lose(
        row?.pid === session.pid
          ? "the session no longer holds the lock"
          : // No close event came: something between us and PostgreSQL hands our statements to other sessions.
            "the lock's session was replaced without its connection closing (a transaction-mode pooler? use a direct or session-mode DATABASE_URL)",
      );
    } catch (error) {
      return this.lose(`the check failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async acquire(): Promise<boolean> {
    try {
      this.sql ??= this.open();
      // The lock is freed when PostgreSQL drops this session: at once for a process that died on a
      // living machine; for a machine that vanished, once these keepalives go unanswered (5 s idle,
      // then 3 probes 1 s apart: ~8 s).
      const [row] = await withTimeout(
        this.sql<{ locked: boolean; pid: number; start: string }[]>`
          select set_config('tcp_keepalives_idle', '5', false), set_config('tcp_keepalives_interval', '1', false),
            set_config('tcp_keepalives_count', '3', false), pg_try_advisory_lock(${this.lockId}::bigint) as locked,
            pg_backend_pid() as pid, (select backend_start::text from pg_stat_activity where pid = pg_backend_pid()) as start`,
        LEADERSHIP_PROBE_TIMEOUT_MS,
      );
      if (!row?.locked || this.ended) {
        if (row?.locked) await this.resign(false);
        return false;
      }
      this.session = { pid: row.pid, start: row.start };
      this.closedUnderUs = false;
      log.info({ pid: row.pid }, "leading the jobs of this database");
      return true;
    } catch {
      // Not leading: a fresh connection next time (a half-open one may still hold a lock it took).
      await this.resign(false);
      return false;
    }
  }

  private open(): postgres.Sql {
    const sql = this.connect({
      max: 1,
      // The lock lives as long as this connection: never closed for idleness or age.
      idle_timeout: 0,
      max_lifetime: 0,
      connect_timeout: 5,
      connection: { application_name: `bsc-pay leader ${process.pid} ${hostname()}`.slice(0, 63) },
      onnotice: () => {},
      onclose: () => {
        if (this.sql === sql && this.session) this.closedUnderUs = true;
      },
    });
    return sql;
  }

  private async lose(reason: string): Promise<false> {
    if (!this.ended) log.error({ reason }, "job leadership lost: stopping the jobs here; another process may take over");
    await this.resign(true);
    return false;
  }

  /** Ends the lock's client for good; `terminate`: and makes sure the session that held the lock is gone. */
  private async resign(terminate: boolean): Promise<void> {
    const sql = this.sql;
    const session = this.session;
    this.sql = null;
    this.session = null;
    this.closedUnderUs = false;
    if (terminate && session) {
      // The session may outlive its connection's end (a stalled network never delivers it): ask the
      // database to end it, by pid and start so that a reused pid is never hit. Not awaited.
      withTimeout(
        this
          .main`select pg_terminate_backend(pid) from pg_stat_activity where pid = ${session.pid} and backend_start::text = ${session.start}`,
        LEADERSHIP_PROBE_TIMEOUT_MS,
      ).catch((error: unknown) => log.warn({ err: String(error) }, "could not terminate the old lock session"));
    }
    await sql?.end({ timeout: 0 }).catch(() => {});
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]);
}
