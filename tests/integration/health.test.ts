import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { GET } from "@/app/api/health/route";
import { closeDatabase } from "@/lib/db";
import { chainCursors } from "@/lib/db/schema";
import { startJobs, stopJobs } from "@/lib/ops/jobs/runner-registry";
import { scanNetworkStep } from "@/lib/ops/jobs/steps";
import { renderMetrics } from "@/lib/ops/metrics/collect";
import { useTestChain } from "../helpers/chain";
import { SWEEP_MODE, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { startWsProxy } from "../helpers/ws-proxy";

const db = useTestDatabase();
const PROVIDER_KEY = "f0e1d2c3b4a5secretprojectkey";
const chain = useTestChain();

describe("GET /api/health", () => {
  it("answers 200 with the database, each network's moving head, cursor and lag, and the jobs mode", async () => {
    useConfig({ LOCAL_RPC_URL: chain().url, LOCAL_CHAIN_STATE_DIR: mkdtempSync(join(tmpdir(), "bscpay-health-")) });
    vi.spyOn(console, "log").mockImplementation(() => {});
    const first = await GET();
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toMatchObject({ status: "ok", db: "ok", jobs: { mode: "embedded" } });
    // The start-up check asked the chain: anvil runs Prague, so deposits are swept in batches.
    expect(body.chains.local).toMatchObject({
      chainId: 31337,
      cursor: null,
      lag: null,
      heldForwards: 0,
      quarantinedLogs: 0,
      sweepMode: SWEEP_MODE,
    });
    expect(body.chains.local.head).toBeGreaterThanOrEqual(0);

    await chain().client.mine({ blocks: 5 });
    await db().insert(chainCursors).values({ network: "local", lastScannedBlock: 2n });
    const second = await (await GET()).json();
    expect(second.chains.local.head).toBe(body.chains.local.head + 5);
    expect(second.chains.local.cursor).toBe(2);
    expect(second.chains.local.lag).toBe(second.chains.local.head - 2);
  });

  it("stays 200 but says degraded, naming the network, when an RPC is unreachable — never showing its URL or key", async () => {
    useConfig({
      LOCAL_RPC_URL: chain().url,
      BSC_RPC_URL: `http://127.0.0.1:1/v3/${PROVIDER_KEY}?token=${PROVIDER_KEY}`,
      NEXTAUTH_SECRET: "0123456789abcdef0123",
    });
    await db().insert(chainCursors).values({ network: "bsc", lastScannedBlock: 0n }).onConflictDoNothing();
    await expect(scanNetworkStep(db(), "bsc")).rejects.toThrow();
    const response = await GET();
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.status).toBe("degraded");
    expect(body.chains.bsc).toMatchObject({
      chainId: 56,
      head: null,
      error: "RPC unreachable",
      scanError: "the RPC endpoint is unreachable or failing",
    });
    expect(body.chains.local.head).toBeGreaterThan(0);
    const text = JSON.stringify(body);
    expect(text).not.toContain(PROVIDER_KEY);
    expect(text).not.toContain("127.0.0.1:1");
  });

  it("answers every request of a 2 s period from one computation: polling it costs the RPC one round", async () => {
    const proxy = await startRpcProxy(chain().url);
    try {
      useConfig({ LOCAL_RPC_URL: proxy.url, HEALTH_CACHE_MS: "2000" });
      const first = await (await GET()).json();
      const oneRound = proxy.requests;
      expect(oneRound).toBeGreaterThan(0);
      await chain().client.mine({ blocks: 3 });
      const burst = await Promise.all(Array.from({ length: 20 }, () => GET().then((r) => r.json())));
      expect(proxy.requests).toBe(oneRound);
      expect(burst.every((b) => b.chains.local.head === first.chains.local.head)).toBe(true);

      const later = Date.now() + 2_100;
      vi.spyOn(Date, "now").mockReturnValue(later);
      const fresh = await (await GET()).json();
      expect(fresh.chains.local.head).toBe(first.chains.local.head + 3);
      expect(proxy.requests).toBeGreaterThan(oneRound);
    } finally {
      vi.restoreAllMocks();
      await proxy.close();
    }
  });

  it("shows per network how new heads arrive (source, connected, reconnects, last head) in health and metrics, never the socket's URL", async () => {
    const ws = await startWsProxy(chain().url);
    try {
      useConfig({
        BSC_RPC_URL: chain().url,
        BSC_WS_URL: `${ws.url}/ws/${PROVIDER_KEY}`,
        BSC_TESTNET_RPC_URL: chain().url,
        NEXTAUTH_SECRET: "0123456789abcdef0123",
      });
      await startJobs();
      const newHeads = async () => (await (await GET()).json()).chains as Record<string, { newHeads: Record<string, unknown> }>;
      await expect.poll(async () => (await newHeads()).bsc?.newHeads.connected, { timeout: 10_000 }).toBe(true);
      await chain().client.mine({ blocks: 1 });
      await expect.poll(async () => (await newHeads()).bsc?.newHeads.lastHeadAt, { timeout: 5_000 }).not.toBeNull();
      ws.drop();
      await expect
        .poll(async () => (await newHeads()).bsc?.newHeads, { timeout: 10_000 })
        .toMatchObject({ source: "websocket", connected: true, reconnects: 1 });
      const chains = await newHeads();
      expect(chains["bsc-testnet"]?.newHeads).toEqual({ source: "poll", connected: false, reconnects: 0, lastHeadAt: null });
      expect(JSON.stringify(chains)).not.toContain(PROVIDER_KEY);
      const { body } = await renderMetrics(db());
      expect(body).toMatch(/^bscpay_new_heads_connected\{network="bsc"\} 1$/m);
      expect(body).toMatch(/^bscpay_new_heads_reconnects\{network="bsc"\} 1$/m);
      expect(body).not.toMatch(/bscpay_new_heads_connected\{network="bsc-testnet"\}/);
    } finally {
      await stopJobs();
      await ws.close();
    }
  });

  it("answers 503 when the database is unavailable", async () => {
    useConfig({ LOCAL_RPC_URL: chain().url, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
    await closeDatabase();
    const response = await GET();
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body).toMatchObject({ status: "error", db: "unavailable" });
    // Public: no database message, no connection string.
    expect(body.error).toBeUndefined();
    expect(JSON.stringify(body)).not.toMatch(/nobody|postgres:|ECONNREFUSED/);
  });
});
