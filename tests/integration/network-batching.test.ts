/**
 * Whether a network batches is the database's answer, the same for every process and after a
 * restart: batches a node refused for good turn the network classic until the
 * operator says otherwise, checks the node cannot answer are counted in a row and cleared by the
 * next that passes. A "fresh process" here is forgetBatchSupport(): nothing read from the chain is
 * remembered, only what the database holds.
 */
import { eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { forwards, networkBatching } from "@/lib/db/schema";
import { batchSweepSupport, forgetBatchSupport, knownSweepMode } from "@/lib/engine/forwarding/batched/batch-support";
import { readNetworkBatching } from "@/lib/engine/forwarding/batched/network-batching";
import { tendLedger } from "@/lib/engine/ledger/watchdog";
import { sweeperCommand } from "@/lib/ops/admin/sweeper";
import { dueForwardsStep, forwardStep, scanNetworkStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { SWEEP_MODE, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955" as Address;
let proxy: RpcProxy;
let merchant: Merchant;
let token: Address;

async function paid(amount: string): Promise<string> {
  const created = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: merchant.tokenId, amount, merchantWallet: MERCHANT_WALLET },
  });
  await chain().client.waitForTransactionReceipt({
    hash: await payTo(chain().url, token, created.body.data.depositAddress, parseUnits(amount, 18)),
  });
  await scanNetworkStep(db(), "bsc");
  return created.body.data.sessionId as string;
}

/** One batch the node refuses for good: formed and refused, its nonce filled by the ledger, its forwards pending again. */
async function refusedBatch(): Promise<void> {
  await db()
    .update(forwards)
    .set({ nextAttemptAt: new Date(0), lockedUntil: null });
  proxy.options.refuseRawTransactions = 1_000;
  const [first] = await dueForwardsStep(db());
  if (!first) throw new Error("no forward due");
  await forwardStep(db(), first.forwardId);
  proxy.options.refuseRawTransactions = 1; // the batch once more; the filler goes through
  await tendLedger(db());
  await db()
    .update(forwards)
    .set({ nextAttemptAt: new Date(0), lockedUntil: null });
  await forwardStep(db(), first.forwardId);
  proxy.options.refuseRawTransactions = 0;
}

beforeAll(async () => {
  proxy = await startRpcProxy(chain().url);
  useConfig({
    BSC_RPC_URL: proxy.url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    CONFIRMATIONS: "0",
    SWEEP_MODE: "batched",
    SWEEP_BATCH_WAIT_MS: "0",
  });
  forgetBatchSupport();
  token = await deployTestToken(chain().url, { symbol: "NBT" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
  await fundGasTank(chain().url);
  // A first payment deploys the sweep contracts.
  await paid("1");
  await runEngine(db(), chain().url);
});
beforeEach(() => {
  proxy.options = {};
});
afterAll(async () => {
  await proxy?.close();
});

describe.skipIf(SWEEP_MODE === "classic")("whether a network batches, as the database holds it", () => {
  it("goes classic for every process after two batches the node refused, until the operator runs sweeper retry-batches", async () => {
    const waiting = await paid("2");
    await refusedBatch();
    expect(await readNetworkBatching(db(), "bsc")).toMatchObject({ refusedBatches: 1 });
    expect((await batchSweepSupport(db(), "bsc")).state).toBe("ready");
    await refusedBatch();
    expect(await readNetworkBatching(db(), "bsc")).toMatchObject({ refusedBatches: 2 });

    for (const process of ["this process", "a fresh process (a restart, or another instance)"]) {
      if (process !== "this process") forgetBatchSupport();
      expect(await batchSweepSupport(db(), "bsc"), process).toEqual({
        state: "classic",
        reason: "the node did not mine 2 sweep batches; classic sweeps until an operator runs npm run admin -- sweeper retry-batches",
      });
      expect(await knownSweepMode(db(), "bsc"), process).toBe("classic");
    }
    expect((await sweeperCommand(db(), ["status"])).join("\n")).toContain("batches   off: the node did not mine 2 sweep batches");

    // Meanwhile the payment is forwarded, the classic way.
    await runEngine(db(), chain().url);
    const [classic] = await db().select().from(forwards).where(eq(forwards.sessionId, waiting));
    expect(classic).toMatchObject({ status: "completed", batchId: null });
    expect(classic?.gasTxHash ?? classic?.sweepTxHash).toMatch(/^0x/);

    expect(await sweeperCommand(db(), ["retry-batches"])).toEqual(["bsc: batches again (2 refused batches forgotten)"]);
    expect(await sweeperCommand(db(), ["retry-batches"])).toEqual(["bsc: no refused batches; nothing to do"]);
    expect((await batchSweepSupport(db(), "bsc")).state).toBe("ready");
    const again = await paid("3");
    await runEngine(db(), chain().url);
    const [batched] = await db().select().from(forwards).where(eq(forwards.sessionId, again));
    expect(batched).toMatchObject({ status: "completed", batchId: expect.any(Number) });
  });

  it("counts checks the node cannot answer in a row, in the database, and clears them with the next that passes", async () => {
    await db().delete(networkBatching).where(eq(networkBatching.network, "bsc"));
    await batchSweepSupport(db(), "bsc"); // the chain's EIP-7702 answer, kept
    proxy.options.down = true;
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      forgetBatchSupport(); // every attempt reads the chain again, as a fresh process would
      answers.push((await batchSweepSupport(db(), "bsc")).state);
    }
    expect(answers).toEqual(["wait", "wait", "classic"]);
    expect(await readNetworkBatching(db(), "bsc")).toMatchObject({ failedChecks: 3, lastCheckError: expect.any(String) });

    proxy.options.down = false;
    forgetBatchSupport();
    expect((await batchSweepSupport(db(), "bsc")).state).toBe("ready");
    expect(await readNetworkBatching(db(), "bsc")).toMatchObject({ failedChecks: 0, lastCheckError: null });
  });

  it("refuses retry-batches for a network that is not configured, changing nothing", async () => {
    await expect(sweeperCommand(db(), ["retry-batches", "--network", "nowhere"])).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await db().select().from(networkBatching).where(eq(networkBatching.network, "nowhere"))).toEqual([]);
  });
});
