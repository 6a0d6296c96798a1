import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { type Address, type Hex, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { closeDatabase } from "@/lib/db";
import { chainTransactions, forwards, sweepBatches } from "@/lib/db/schema";
import { forgetBatchSupport } from "@/lib/engine/forwarding/batched/batch-support";
import { tendLedger } from "@/lib/engine/ledger/watchdog";
import { dueForwardsStep, forwardStep, scanNetworkStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { openFileDatabase } from "../helpers/database";
import { fundGasTank, killForwarderAfterItSends, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";

/**
 * Batched sweeps (EIP-7702) across crashes: a batch recorded but never broadcast, and a worker
 * killed right after broadcasting one. Either way every deposit is swept exactly once, by the
 * same signed bytes, and the gas tank sends one batch transaction, not two.
 */
const chain = useTestChain({ chainId: 56 });
const dir = join(mkdtempSync(join(tmpdir(), "bscpay-batch-crash-")), "pglite");
const MERCHANT_WALLET = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f" as Address;
let proxy: RpcProxy;
let merchant: Merchant;
let token: Address;
let tank: Address;
const env = () => ({
  BSC_RPC_URL: proxy.url,
  NEXTAUTH_SECRET: "integration-test-secret-0123456789",
  CONFIRMATIONS: "1",
  MASTER_MNEMONIC: TEST_MNEMONIC,
  PGLITE_DIR: dir,
  SWEEP_MODE: "batched",
  SWEEP_BATCH_WAIT_MS: "0",
});
afterAll(async () => {
  await closeDatabase();
  await proxy?.close();
});

async function paidSessions(amounts: string[]): Promise<Address[]> {
  const addresses: Address[] = [];
  for (const amount of amounts) {
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount, merchantWallet: MERCHANT_WALLET },
    });
    const deposit = created.body.data.depositAddress as Address;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, deposit, parseUnits(amount, 18)) });
    addresses.push(deposit);
  }
  await chain().client.mine({ blocks: 1 });
  return addresses;
}

/** The merchant, its token and a funded gas tank; a first payment has deployed the sweep contracts and delegated its address. */
beforeAll(async () => {
  proxy = await startRpcProxy(chain().url);
  useConfig(env());
  const handle = await openFileDatabase(dir);
  token = await deployTestToken(chain().url, { symbol: "BCR" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
  tank = await fundGasTank(chain().url);
  await paidSessions(["1"]);
  await runEngine(handle.db, chain().url);
  await handle.close();
});

describe("batched sweeps across crashes", () => {
  it("re-sends the recorded batch, byte for byte, when the crash came between recording and broadcasting it", async () => {
    useConfig(env());
    const handle = await openFileDatabase(dir);
    const tankSent = await chain().client.getTransactionCount({ address: tank });

    const deposits = await paidSessions(["2", "3", "4"]);
    await scanNetworkStep(handle.db, "bsc");
    proxy.options.refuseRawTransactions = 1_000; // the node never hears of it, as if the process died first
    const [first] = await dueForwardsStep(handle.db);
    await forwardStep(handle.db, first!.forwardId);
    const batched = await handle.db.select().from(forwards).where(eq(forwards.status, "batched"));
    expect(batched).toHaveLength(3);
    expect(new Set(batched.map((f) => f.batchId)).size).toBe(1);
    const [batch] = (await handle.db.select().from(sweepBatches)).filter((b) => b.id === batched[0]!.batchId);
    expect(batch).toMatchObject({ kind: "sweep", status: "sent", size: 3, authorizations: 3 });
    expect(await chain().client.getTransactionCount({ address: tank, blockTag: "pending" })).toBe(tankSent);

    // The restart: a fresh process state, the node reachable again.
    proxy.options.refuseRawTransactions = 0;
    forgetBatchSupport();
    await handle.db.update(forwards).set({ lockedUntil: null });
    await runEngine(handle.db, chain().url);
    const done = await handle.db.select().from(forwards);
    expect(done.every((f) => f.status === "completed")).toBe(true);
    const mined = await chain().client.getTransaction({ hash: batch!.txHash as Hex });
    expect(mined.hash).toBe(batch!.txHash);
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(tankSent + 1); // one batch, not two
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(parseUnits("10", 18));
    for (const address of deposits) {
      expect(await tokenBalance(chain().url, token, address)).toBe(0n);
      expect(await chain().client.getBalance({ address })).toBe(0n);
      expect(await chain().client.getTransactionCount({ address })).toBe(1); // its authorization's nonce, no transaction of its own
    }
    await handle.close();
  });

  it("sweeps exactly once when the worker is killed right after broadcasting the batch", async () => {
    useConfig(env());
    let handle = await openFileDatabase(dir);
    const deposits = await paidSessions(["5", "6"]);
    await scanNetworkStep(handle.db, "bsc");
    const tankSent = await chain().client.getTransactionCount({ address: tank });
    const merchantBefore = await tokenBalance(chain().url, token, MERCHANT_WALLET);
    const earlier = new Set((await handle.db.select({ id: sweepBatches.id }).from(sweepBatches)).map((b) => b.id));
    await handle.close();

    await killForwarderAfterItSends(chain(), { tank, sentBefore: tankSent, env: env(), what: "the batch" });

    handle = await openFileDatabase(dir); // the restart
    forgetBatchSupport();
    expect((await handle.db.select().from(forwards)).filter((f) => f.status === "batched")).toHaveLength(2);
    await handle.db.update(forwards).set({ lockedUntil: null });
    await runEngine(handle.db, chain().url, { mine: true });

    expect((await handle.db.select().from(forwards)).every((f) => f.status === "completed")).toBe(true);
    const sweeps = (await handle.db.select().from(sweepBatches)).filter((b) => b.kind === "sweep");
    expect(sweeps.every((b) => b.status === "mined")).toBe(true);
    expect(sweeps.filter((b) => !earlier.has(b.id)).map((b) => [b.size, b.status])).toEqual([[2, "mined"]]);
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(tankSent + 1);
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(merchantBefore + parseUnits("11", 18));
    for (const address of deposits) expect(await tokenBalance(chain().url, token, address)).toBe(0n);
    await handle.close();
  });

  it("fills the nonce of a batch the node refuses for good, then batches its deposits again and sweeps them once", async () => {
    useConfig(env());
    const handle = await openFileDatabase(dir);
    forgetBatchSupport();
    const deposits = await paidSessions(["7", "8"]);
    await scanNetworkStep(handle.db, "bsc");
    const tankSent = await chain().client.getTransactionCount({ address: tank });
    const merchantBefore = await tokenBalance(chain().url, token, MERCHANT_WALLET);
    proxy.options.refuseRawTransactions = 1_000;
    const [first] = await dueForwardsStep(handle.db);
    await forwardStep(handle.db, first!.forwardId);
    const [refused] = (await handle.db.select().from(sweepBatches)).filter((b) => b.kind === "sweep" && b.status === "sent");
    expect(refused).toMatchObject({ size: 2 });
    const step = async () => {
      await handle.db.update(forwards).set({ nextAttemptAt: new Date(0), lockedUntil: null });
      await forwardStep(handle.db, first!.forwardId);
    };

    // Refused for good: the ledger's next round fills its nonce at once (recorded first), whatever the node says of the batch meanwhile.
    proxy.options.refuseRawTransactions = 1; // the batch once more; the cancel goes through
    await tendLedger(handle.db);
    const [cancel] = await handle.db.select().from(chainTransactions).where(eq(chainTransactions.replacesId, refused!.chainTxId!));
    expect(cancel).toMatchObject({ kind: "cancel", nonce: refused!.nonce, walletRole: "gas_tank", toAddress: tank });
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(tankSent + 1);

    // The cancel's receipt settles the nonce: the batch moved nothing, its forwards batch again.
    await step();
    expect((await handle.db.select().from(forwards)).filter((f) => f.batchId === refused!.id)).toHaveLength(0);
    await runEngine(handle.db, chain().url);

    const rows = await handle.db.select().from(sweepBatches);
    expect(rows.find((b) => b.id === refused!.id)!.status).toBe("replaced");
    expect((await handle.db.select().from(chainTransactions).where(eq(chainTransactions.id, cancel!.id)))[0]!.status).toBe("mined");
    const again = rows.filter((b) => b.kind === "sweep" && b.id > refused!.id);
    expect(again.map((b) => [b.size, b.authorizations, b.status])).toEqual([[2, 2, "mined"]]);
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(merchantBefore + parseUnits("15", 18));
    for (const address of deposits) expect(await tokenBalance(chain().url, token, address)).toBe(0n);
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(tankSent + 2); // the cancel and the new batch
    await handle.close();
  });
  it("re-prices a batch the node answers 'underpriced' (taken as landed) once it waits at the tank's next nonce past the bound; the stall shows meanwhile", async () => {
    useConfig(env());
    const handle = await openFileDatabase(dir);
    forgetBatchSupport();
    const deposits = await paidSessions(["9"]);
    await scanNetworkStep(handle.db, "bsc");
    const tankSent = await chain().client.getTransactionCount({ address: tank });
    const merchantBefore = await tokenBalance(chain().url, token, MERCHANT_WALLET);
    proxy.options.refuseRawTransactionsAs = "underpriced";
    proxy.options.refuseRawTransactions = 1_000;
    await handle.db.update(forwards).set({ nextAttemptAt: new Date(0), lockedUntil: null });
    for (const { forwardId } of await dueForwardsStep(handle.db)) await forwardStep(handle.db, forwardId);
    const batch = (await handle.db.select().from(sweepBatches)).find((b) => b.kind === "sweep" && b.status === "sent")!;
    expect(batch.lastError).toBeNull(); // the answer looked like success
    const ofNonce = () =>
      handle.db
        .select()
        .from(chainTransactions)
        .where(and(eq(chainTransactions.wallet, tank), eq(chainTransactions.nonce, batch.nonce)))
        .orderBy(chainTransactions.id);

    await tendLedger(handle.db);
    expect(await ofNonce()).toHaveLength(1); // young: not stuck yet
    // Not mined for two minutes (here: its record made older) while its nonce is the tank's next.
    await handle.db
      .update(chainTransactions)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(chainTransactions.id, batch.chainTxId!));
    await tendLedger(handle.db);
    const [original, repriced] = await ofNonce();
    expect(repriced).toMatchObject({ kind: "batch", replacesId: original!.id, status: "pending" });
    expect(repriced!.gasPrice).toBeGreaterThanOrEqual(original!.gasPrice * 2n);
    const { getHealth } = await import("@/lib/ops/health/health");
    expect((await getHealth({ startApp: false })).chains.bsc!.stuckWallets).toEqual([
      { wallet: "gas_tank", kind: "batch", nonce: batch.nonce, since: original!.createdAt.toISOString() },
    ]);
    const { operatorStatus } = await import("@/lib/ops/health/status");
    expect((await operatorStatus(handle.db)).lines.join("\n")).toContain(
      `gas_tank ${tank}: batch at nonce ${batch.nonce} not mined for 2 min`,
    );
    const { renderMetrics } = await import("@/lib/ops/metrics/collect");
    const stuck = (await renderMetrics(handle.db)).body.match(
      new RegExp(`bscpay_wallet_stuck_seconds\\{network="bsc",wallet="${tank}"\\} (\\d+)`),
    );
    expect(Number(stuck?.[1])).toBeGreaterThanOrEqual(120);

    proxy.options.refuseRawTransactions = 0;
    proxy.options.refuseRawTransactionsAs = undefined;
    await handle.db.update(forwards).set({ lockedUntil: null });
    await runEngine(handle.db, chain().url);
    expect((await ofNonce()).map((r) => r.status)).toEqual(["replaced", "mined"]);
    const [swept] = await handle.db.select().from(forwards).where(eq(forwards.batchId, batch.id));
    expect(swept).toMatchObject({ status: "completed", sweepTxHash: repriced!.txHash }); // the re-priced copy swept it, with the same authorizations
    expect((await handle.db.select().from(sweepBatches)).find((b) => b.id === batch.id)!.status).toBe("mined");
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(tankSent + 1);
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(merchantBefore + parseUnits("9", 18));
    for (const address of deposits) expect(await tokenBalance(chain().url, token, address)).toBe(0n);
    expect((await getHealth({ startApp: false })).chains.bsc!.stuckWallets).toEqual([]);
    await handle.close();
  });
});
