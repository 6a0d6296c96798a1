import { and, eq } from "drizzle-orm";
import { type Address, parseAbiItem, parseUnits } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { chainCursors, forwards } from "@/lib/db/schema";
import { MAX_FORWARD_ATTEMPTS, MAX_RETRYABLE_PAUSE_SECONDS } from "@/lib/engine/forwarding/forward-schedule";
import { scanNetworkStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { forwardRound, fundGasTank, newForwardLog, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955" as Address;
const proxies: RpcProxy[] = [];
afterAll(async () => Promise.all(proxies.map((p) => p.close())));

async function newSession(m: Merchant, amount: string) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": m.apiKey },
    body: { tokenId: m.tokenId, amount, merchantWallet: MERCHANT_WALLET },
  });
  return res.body.data as { sessionId: string; depositAddress: Address };
}

describe("chain engine under RPC faults", () => {
  it("completes and forwards every payment exactly once when a third of RPC requests fail", async () => {
    const proxy = await startRpcProxy(chain().url);
    proxies.push(proxy);
    useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
    const token = await deployTestToken(chain().url, { symbol: "FLT" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    await fundGasTank(chain().url);
    const sessions = [];
    for (let i = 1; i <= 6; i++) sessions.push(await newSession(merchant, String(i)));
    for (const [i, s] of sessions.entries()) {
      await chain().client.waitForTransactionReceipt({
        hash: await payTo(chain().url, token, s.depositAddress, parseUnits(String(i + 1), 18)),
      });
    }
    await chain().client.mine({ blocks: 1 });

    proxy.options.failEvery = 3; // from here on, the engine's own requests fail one in three
    await runEngine(db(), chain().url, { rounds: 200 }).catch(() => {});
    await runEngine(db(), chain().url, { rounds: 200 });
    expect(proxy.failures).toBeGreaterThan(10);
    proxy.options.failEvery = 0;

    for (const [i, s] of sessions.entries()) {
      const res = await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId: s.sessionId } });
      expect(res.body.data).toMatchObject({ status: "completed", receivedAmount: String(i + 1) });
      expect(await tokenBalance(chain().url, token, s.depositAddress)).toBe(0n);
    }
    // Exactly one sweep per deposit reached the merchant.
    const sweeps = await chain().client.getLogs({
      address: token,
      event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
      args: { to: MERCHANT_WALLET },
      fromBlock: 0n,
    });
    expect(sweeps).toHaveLength(6);
    expect(sweeps.reduce((sum, l) => sum + l.args.value!, 0n)).toBe(parseUnits("21", 18));
    expect((await db().select().from(forwards)).every((f) => f.status === "completed")).toBe(true);
  });

  // Up to 1,000 forward rounds against a node that fails every request: ~40 s on a quiet machine,
  // past the 60 s default when CI runs the browser tests beside it.
  it("holds no forward through a 15-minute RPC outage (8 failures in 10.6 min used to hold each), and forwards them all once the node answers", {
    timeout: 180_000,
  }, async () => {
    const proxy = await startRpcProxy(chain().url);
    proxies.push(proxy);
    useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
    const token = await deployTestToken(chain().url, { symbol: "OUT" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    await fundGasTank(chain().url);
    const sessions = [await newSession(merchant, "4"), await newSession(merchant, "5")];
    for (const [i, s] of sessions.entries()) {
      await chain().client.waitForTransactionReceipt({
        hash: await payTo(chain().url, token, s.depositAddress, parseUnits(String(i + 4), 18)),
      });
    }
    await chain().client.mine({ blocks: 1 });
    // Seen while the node answers: the payments are recorded and their forwards planned.
    for (let i = 0; i < 50; i++) if ((await scanNetworkStep(db(), "bsc")).behind === 0) break;
    const ours = async () =>
      (await db().select().from(forwards)).filter((f) => f.tokenContract.toLowerCase() === token.toLowerCase()).sort((a, b) => a.id - b.id);
    const planned = await ours();
    expect(planned).toHaveLength(2);

    const OUTAGE_MS = 15 * 60_000;
    proxy.options.down = true; // from here on every request fails (502)
    const log = newForwardLog(); // the forward queue's simulated clock
    const failures = (id: number) => log.steps.filter((s) => s.forwardId === id && s.outcome === "retry");
    for (let round = 0; round < 1000 && log.simulatedMs < OUTAGE_MS; round++) {
      if ((await forwardRound(db(), log)) === 0) break; // nothing left open
    }
    for (const f of await ours()) {
      expect(f).toMatchObject({ status: "pending", attempts: 0, heldReason: null });
      expect(f.lastError).toMatch(/HTTP request failed/);
      const at = failures(f.id).map((s) => s.atMs);
      expect(at.length).toBeGreaterThan(MAX_FORWARD_ATTEMPTS * 10);
      // Each retry after a pause on the simulated clock, short and bounded.
      const pauses = at.slice(1).map((t, i) => t - at[i]!); // at[i] is the attempt before at[i + 1]
      expect(pauses.every((p) => p > 0 && p <= MAX_RETRYABLE_PAUSE_SECONDS * 1000)).toBe(true);
    }
    expect(log.simulatedMs).toBeGreaterThanOrEqual(OUTAGE_MS);

    proxy.options.down = false;
    await runEngine(db(), chain().url);
    expect((await ours()).map((f) => f.status)).toEqual(["completed", "completed"]);
    for (const s of sessions) expect(await tokenBalance(chain().url, token, s.depositAddress)).toBe(0n);
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(parseUnits("9", 18));
  });

  it("never skips a block when the provider refuses wide eth_getLogs ranges", async () => {
    const proxy = await startRpcProxy(chain().url, { maxLogRange: 3 });
    proxies.push(proxy);
    useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
    const token = await deployTestToken(chain().url, { symbol: "LIM" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    const [cursorBefore] = await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
    const sessions = [];
    for (let i = 0; i < 5; i++) {
      const s = await newSession(merchant, "1");
      sessions.push(s);
      await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, s.depositAddress, parseUnits("1", 18)) });
      await chain().client.mine({ blocks: 4 }); // payments spread over many blocks
    }
    await runEngine(db(), chain().url);
    for (const s of sessions) {
      const res = await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId: s.sessionId } });
      expect(res.body.data.status).toBe("completed");
    }
    // The ranges served cover every block from the old cursor to the new one, without a gap.
    const [cursorAfter] = await db()
      .select()
      .from(chainCursors)
      .where(and(eq(chainCursors.network, "bsc")));
    const ranges = proxy.logRanges.filter(([from]) => from > Number(cursorBefore!.lastScannedBlock)).sort((a, b) => a[0] - b[0]);
    expect(ranges.every(([from, to]) => to - from + 1 <= 3)).toBe(true);
    let next = Number(cursorBefore!.lastScannedBlock) + 1;
    for (const [from, to] of ranges) {
      expect(from).toBeLessThanOrEqual(next);
      next = Math.max(next, to + 1);
    }
    expect(next - 1).toBe(Number(cursorAfter!.lastScannedBlock));
  });

  it("asks one token contract at a time when a single block still exceeds the provider's log limit", async () => {
    const proxy = await startRpcProxy(chain().url);
    proxies.push(proxy);
    useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
    await fundGasTank(chain().url);
    await runEngine(db(), chain().url);
    const a = await deployTestToken(chain().url, { symbol: "SPA" });
    const b = await deployTestToken(chain().url, { symbol: "SPB" });
    const [ma, mb] = [
      await setUpMerchant({ contractAddress: a, network: "bsc" }),
      await setUpMerchant({ contractAddress: b, network: "bsc" }),
    ];
    const [sa, sb] = [await newSession(ma, "2"), await newSession(mb, "3")];
    await chain().client.setAutomine(false);
    try {
      await payTo(chain().url, a, sa.depositAddress, parseUnits("2", 18));
      await payTo(chain().url, b, sb.depositAddress, parseUnits("3", 18));
      await chain().client.mine({ blocks: 1 });
    } finally {
      await chain().client.setAutomine(true);
    }
    const block = Number(await chain().client.getBlockNumber());
    proxy.options.splitContractsAtBlock = block; // any query with two contracts over this block is "too many results"
    await chain().client.mine({ blocks: 1 });
    await runEngine(db(), chain().url);
    expect(proxy.refusedLogs).toBeGreaterThan(0);
    expect((await call(status, { headers: { "x-api-key": ma.apiKey }, params: { sessionId: sa.sessionId } })).body.data.status).toBe(
      "completed",
    );
    expect((await call(status, { headers: { "x-api-key": mb.apiKey }, params: { sessionId: sb.sessionId } })).body.data.status).toBe(
      "completed",
    );
  });

  it("fails only that block — never skipping it — and says so in health, when one contract's logs of one block are too many", async () => {
    const proxy = await startRpcProxy(chain().url);
    proxies.push(proxy);
    useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
    await fundGasTank(chain().url);
    await runEngine(db(), chain().url);
    const token = await deployTestToken(chain().url, { symbol: "BIG" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    const session = await newSession(merchant, "1");
    const receipt = await chain().client.waitForTransactionReceipt({
      hash: await payTo(chain().url, token, session.depositAddress, parseUnits("1", 18)),
    });
    const block = Number(receipt.blockNumber);
    proxy.options.refuseLogsAtBlock = block;
    await chain().client.mine({ blocks: 1 });

    let failure: unknown;
    for (let i = 0; i < 50 && !failure; i++) {
      const result = await scanNetworkStep(db(), "bsc").catch((error: unknown) => {
        failure = error;
        return null;
      });
      if (result?.behind === 0) break;
    }
    expect(String(failure)).toContain(`block ${block}`);
    const [cursor] = await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
    expect(Number(cursor!.lastScannedBlock)).toBe(block - 1);
    const body = await (await health()).json();
    expect(body.chains.bsc.scanError).toBe(
      `the RPC provider refuses the Transfer logs of block ${block} even one token contract at a time`,
    );

    proxy.options.refuseLogsAtBlock = undefined; // the provider recovers: the same block is read, nothing skipped
    await runEngine(db(), chain().url);
    expect(
      (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId: session.sessionId } })).body.data.status,
    ).toBe("completed");
    expect((await (await health()).json()).chains.bsc.scanError).toBeNull();
  });
});
