import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { AdvisoryLeadership } from "./leadership";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The database handle every lib/ module uses, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Db;
  driver: "pglite" | "postgres";
  /**
   * Whether this process leads the background jobs of this database: a session-level advisory
   * lock held on a connection of its own, each call proving that session still holds it
   * (leadership.ts; PGlite is one process, so it always leads). Call it on every tick: a lost
   * connection loses the lock, and another process takes over.
   */
  holdsLeadership(lockId: number): Promise<boolean>;
  /** What the last `holdsLeadership` found, turned false the moment the lock's connection closes: checked before each piece of work. */
  leads(lockId: number): boolean;
  /**
   * LISTEN on `channel` (a dedicated connection on PostgreSQL, re-established by the driver):
   * `onMessage` gets each NOTIFY's payload, from any process of this database, once its
   * transaction commits. Resolves, once listening, to the function that stops it.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** postgres.js with a pool sized for one Next.js process; numerics stay strings (see columns.ts). */
export function openPostgres(url: string, options: { max?: number } = {}): DatabaseHandle {
  const settings = { onnotice: () => {}, connect_timeout: 10, idle_timeout: 60 };
  const client = postgres(url, { max: options.max ?? 10, ...settings });
  const requests = postgres(url, { max: REQUEST_POOL_SIZE, ...settings });
  const leaderships = new Map<number, AdvisoryLeadership>();
  const leadership = (lockId: number) => {
    let held = leaderships.get(lockId);
    if (!held) {
      held = new AdvisoryLeadership(lockId, (lockOptions) => postgres(url, lockOptions), client);
      leaderships.set(lockId, held);
    }
    return held;
  };
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  REQUEST_DBS.set(db, drizzlePostgres(requests, { schema }) as unknown as Db);
  return {
    db,
    driver: "postgres",
    holdsLeadership: (lockId) => leadership(lockId).holds(),
    leads: (lockId) => leaderships.get(lockId)?.leads ?? false,
    listen: async (channel, onMessage) => {
      const request = await client.listen(channel, onMessage);
      return () => request.unlisten();
    },
    close: once(async () => {
      await Promise.all([...leaderships.values()].map((held) => held.close()));
      await Promise.all([client.end({ timeout: 5 }), requests.end({ timeout: 5 })]);
    }),
  };
}

/**
 * The hot single statements of API requests (the API key lookup, a session by id, the create
 * statement, a batch of deposit indices) run over a second, small pool. postgres.js sends a
 * statement to an idle connection when it has one, and pipelines it on a busy one otherwise
 * (several statements per write, several results per read). On a database with few cores, a
 * couple of busy connections cost far less CPU, in this process and in PostgreSQL, than one
 * connection per statement (bench/api.ts on 2 cores: PostgreSQL CPU per create ~0.8 → ~0.45 ms,
 * per status read ~0.15 → ~0.09 ms). Only single statements come here, never a transaction, so
 * nothing here waits for a connection of this pool; a statement waits at most for a row lock (a
 * create behind a transaction of the same merchant's idempotent create, a few ms), and the
 * statements pipelined behind it with it. Transactions, jobs and everything else keep the main pool.
 */
const REQUEST_POOL_SIZE = 2;
// On globalThis: Next.js may load this module in more than one bundle.
const REQUEST_DBS_KEY = Symbol.for("bsc-pay.request-dbs");
const requestDbsHolder = globalThis as { [REQUEST_DBS_KEY]?: WeakMap<Db, Db> };
requestDbsHolder[REQUEST_DBS_KEY] ??= new WeakMap();
const REQUEST_DBS: WeakMap<Db, Db> = requestDbsHolder[REQUEST_DBS_KEY];

/** The request pool's handle of `db` for a single statement; `db` itself for a transaction or PGlite. */
export function requestDb(db: Db): Db {
  return REQUEST_DBS.get(db) ?? db;
}

/**
 * PGlite (WASM Postgres) in `dataDir`, or in memory when dataDir is undefined. A data dir must
 * never be opened by two processes at once, so a pid lock file guards it.
 */
export function openPglite(dataDir?: string, options: { loadDataDir?: Blob } = {}): DatabaseHandle & { dumpDataDir(): Promise<Blob> } {
  let releaseLock = () => {};
  let client: PGlite;
  if (dataDir === undefined) {
    // A copy of a dumped data directory (tests start from one migrated template), or a fresh one.
    client = new PGlite(options.loadDataDir ? { loadDataDir: options.loadDataDir } : undefined);
  } else {
    const dir = resolve(/*turbopackIgnore: true*/ dataDir);
    mkdirSync(dirname(dir), { recursive: true });
    releaseLock = acquireDirLock(`${dir}.lock`);
    client = new PGlite(dir);
  }
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    driver: "pglite",
    holdsLeadership: async () => true,
    leads: () => true,
    listen: (channel, onMessage) => client.listen(channel, onMessage),
    dumpDataDir: async () => {
      const dump = await client.dumpDataDir("none");
      return dump instanceof Blob ? dump : new Blob([dump]);
    },
    close: once(async () => {
      await client.close();
      releaseLock();
    }),
  };
}

/** Closing twice (a test, then its teardown) is harmless. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

function acquireDirLock(lockFile: string): () => void {
  try {
    const holder = Number(readFileSync(lockFile, "utf8"));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `the embedded database ${join(dirname(lockFile))} is in use by process ${holder}; stop it first (or set DATABASE_URL)`,
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  writeFileSync(lockFile, String(process.pid));
  const release = () => {
    try {
      if (readFileSync(lockFile, "utf8") === String(process.pid)) rmSync(lockFile);
    } catch {
      // already gone
    }
  };
  process.once("exit", release);
  return release;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
