import { eq, sql } from "drizzle-orm";
import { getConfig } from "./config";
import { getDb } from "./db";
import { chainCursors } from "./db/schema";
import { listNetworks, publicClientFor } from "./chain/networks";
import { ensureStarted } from "./startup";

export interface ChainHealth {
  chainId: number;
  head: number | null;
  cursor: number | null;
  lag: number | null;
  error?: string;
}

export interface Health {
  status: "ok" | "degraded" | "error";
  db: "ok" | "unavailable";
  error?: string;
  chains: Record<string, ChainHealth>;
  jobs: { mode: "embedded" | "inngest" };
}

const RPC_TIMEOUT_MS = 3000;

/**
 * "error" (HTTP 503) when the service cannot serve: not started or database down. An unreachable
 * RPC is "degraded": the API still answers, payments are detected once the chain is back.
 */
export async function getHealth(): Promise<Health> {
  const jobs = { mode: getConfig().jobs.mode };
  try {
    await ensureStarted();
    const db = await getDb();
    await db.execute(sql`select 1`);
  } catch (error) {
    return { status: "error", db: "unavailable", error: (error as Error).message, chains: {}, jobs };
  }
  const chains = Object.fromEntries(await Promise.all(listNetworks().map(async (n) => [n.name, await chainHealth(n.name, n.chainId)] as const)));
  const degraded = Object.values(chains).some((c) => c.error !== undefined);
  return { status: degraded ? "degraded" : "ok", db: "ok", chains, jobs };
}

async function chainHealth(network: string, chainId: number): Promise<ChainHealth> {
  const db = await getDb();
  const [cursorRow] = await db.select().from(chainCursors).where(eq(chainCursors.network, network));
  const cursor = cursorRow ? Number(cursorRow.lastScannedBlock) : null;
  try {
    const head = Number(
      await withTimeout(publicClientFor(network).getBlockNumber({ cacheTime: 0 }), RPC_TIMEOUT_MS),
    );
    return { chainId, head, cursor, lag: cursor === null ? null : Math.max(0, head - cursor) };
  } catch {
    return { chainId, head: null, cursor, lag: null, error: "RPC unreachable" };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timeout")), ms);
    }),
  ]);
}
