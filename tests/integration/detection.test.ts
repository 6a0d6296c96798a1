/**
 * Detection at the chain's speed (docs/design.md §20), through the embedded runner: a new head arriving
 * over WebSocket starts a scan at once; the HTTP poll stays the fallback (socket dropped, refused)
 * and the backstop (a subscription gone silent is seen by the poll, and replaced).
 */
import { type Address, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { getDatabase } from "@/lib/db";
import { type EmbeddedRunner, startEmbeddedRunner } from "@/lib/ops/jobs/embedded-runner";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { payTo } from "../helpers/engine";
import { call } from "../helpers/http";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { startWsProxy, type WsProxy } from "../helpers/ws-proxy";

useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const SECRET = "integration-test-secret-0123456789";
let proxy: WsProxy;
let merchant: Merchant;
let token: Address;
let runner: EmbeddedRunner | null = null;

async function run(scanIntervalMs: number, rpcUrl = chain().url): Promise<EmbeddedRunner> {
  await runner?.stop();
  useConfig({
    BSC_RPC_URL: rpcUrl,
    BSC_WS_URL: proxy.url,
    NEXTAUTH_SECRET: SECRET,
    CONFIRMATIONS: "1",
    SCAN_INTERVAL_MS: String(scanIntervalMs),
  });
  runner = startEmbeddedRunner(await getDatabase());
  return runner;
}
const follower = () => runner?.followers.get("bsc");
async function paid(amount: string): Promise<string> {
  const created = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: merchant.tokenId, amount },
  });
  await chain().client.waitForTransactionReceipt({
    hash: await payTo(chain().url, token, created.body.data.depositAddress, parseUnits(amount, 18)),
  });
  return created.body.data.sessionId;
}
const statusOf = async (sessionId: string) =>
  (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data.status as string;

beforeAll(async () => {
  proxy = await startWsProxy(chain().url);
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1" });
  token = await deployTestToken(chain().url, { symbol: "DET" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
});
afterAll(async () => {
  await runner?.stop();
  await proxy?.close();
});

describe("detection through the embedded runner", () => {
  it("completes a payment on its new head, long before the next poll", async () => {
    const started = await run(60_000); // a poll a minute: only the new head can explain a completion within seconds
    await expect.poll(() => follower()?.state.subscribed, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => started.state.lastScanAt, { timeout: 10_000 }).not.toBeNull(); // the first round is over
    const sessionId = await paid("1");
    await expect.poll(() => statusOf(sessionId), { timeout: 10_000, interval: 50 }).toBe("completed");
  });

  it("completes on its new head when the HTTP node serves that head later than the socket announced it", async () => {
    const lagging = await startRpcProxy(chain().url, { headLagMs: 400 });
    try {
      const started = await run(10_000, lagging.url);
      await expect.poll(() => follower()?.state.subscribed, { timeout: 10_000 }).toBe(true);
      await expect.poll(() => started.state.lastScanAt, { timeout: 10_000 }).not.toBeNull();
      const sessionId = await paid("5");
      const paidAt = Date.now();
      await expect.poll(() => statusOf(sessionId), { timeout: 15_000, interval: 50 }).toBe("completed");
      // The poll comes every 10 s and no other block is mined: only the announced head, scanned
      // again until the HTTP node serves it (and never past what it serves), explains this.
      expect(Date.now() - paidAt).toBeLessThan(3_000);
    } finally {
      await runner?.stop();
      runner = null;
      await lagging.close();
    }
  });

  it("falls back to polling while the socket is down and refused", async () => {
    await run(500);
    await expect.poll(() => follower()?.state.subscribed, { timeout: 10_000 }).toBe(true);
    proxy.refuseNext = 1_000;
    proxy.drop();
    await expect.poll(() => follower()?.state.subscribed, { timeout: 5_000 }).toBe(false);
    const sessionId = await paid("2");
    await expect.poll(() => statusOf(sessionId), { timeout: 10_000, interval: 100 }).toBe("completed");
    expect(follower()?.state.subscribed).toBe(false);
    proxy.refuseNext = 0;
    await expect.poll(() => follower()?.state.subscribed, { timeout: 35_000 }).toBe(true);
  });

  it("detects through the poll when the subscription goes silent, and replaces the silent socket", async () => {
    await run(500);
    await expect.poll(() => follower()?.state.subscribed, { timeout: 10_000 }).toBe(true);
    const connects = follower()?.state.connects ?? 0;
    proxy.silenceOpen();
    const sessionId = await paid("3");
    await expect.poll(() => statusOf(sessionId), { timeout: 10_000, interval: 100 }).toBe("completed");
    await expect.poll(() => (follower()?.state.connects ?? 0) > connects && follower()?.state.subscribed, { timeout: 10_000 }).toBe(true);
    expect(follower()?.state.lastError).toMatch(/^silent/);
  });

  it.each([
    ["stalls at the TCP level", "stall"],
    ["never confirms the subscription", "swallow-subscribe"],
    ["refuses eth_subscribe", "refuse-subscribe"],
  ] as const)("keeps detecting through the poll while the node %s", async (_, fault) => {
    await run(500);
    await expect.poll(() => follower()?.state.subscribed, { timeout: 10_000 }).toBe(true);
    proxy.fault = fault;
    try {
      if (fault === "stall") proxy.stallOpen();
      else proxy.drop(); // the next socket meets the fault
      const sessionId = await paid("4");
      await expect.poll(() => statusOf(sessionId), { timeout: 10_000, interval: 100 }).toBe("completed");
      // The socket's failure was noticed (a stall, by the poll seeing heads it did not report), and it stays failed.
      await expect.poll(() => follower()?.state.lastError ?? null, { timeout: 10_000 }).not.toBeNull();
      expect(follower()?.state.subscribed).toBe(false);
    } finally {
      proxy.fault = null;
    }
  });
});
