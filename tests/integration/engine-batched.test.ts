import { eq, sql } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { chainCursors, chainTransactions, forwards, sweepBatches, walletNonces } from "@/lib/db/schema";
import {
  batchSweepSupport,
  forgetBatchSupport,
  knownSweepMode,
  serviceSweepContracts,
} from "@/lib/engine/forwarding/batched/batch-support";
import { dueForwardsStep, forwardStep, scanNetworkStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { chainClient, deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { deployHostileToken } from "../helpers/hostile";
import { call } from "../helpers/http";

/**
 * The engine's batched sweeps (EIP-7702) end to end on anvil: many deposits in one gas-tank
 * transaction, delegated addresses swept again without authorizations, one refusing address
 * falling back to the classic path alone (a forged Swept event changes nothing), batches that
 * wait for company within their bounds, and a chain without EIP-7702 staying classic.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const oldChain = useTestChain({ chainId: 56, hardfork: "cancun" });
const bareChain = useTestChain({ chainId: 56 }); // Prague, the sweep contracts never deployed
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const SECRET = "integration-test-secret-0123456789";

async function pay(merchant: Merchant, token: Address, amounts: string[], url = chain().url, send = true): Promise<Address[]> {
  const addresses: Address[] = [];
  for (const amount of amounts) {
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount, merchantWallet: MERCHANT_WALLET },
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    addresses.push(res.body.data.depositAddress);
    if (send)
      await chainClient(url).waitForTransactionReceipt({
        hash: await payTo(url, token, res.body.data.depositAddress, parseUnits(amount, 18)),
      });
  }
  return addresses;
}
const sweeps = async () => (await db().select().from(sweepBatches).orderBy(sweepBatches.id)).filter((b) => b.kind === "sweep");
const tankOf = () => fundGasTank(chain().url);

describe("batched sweeps in the engine", () => {
  it("sweeps many deposits with one gas-tank transaction; the addresses never hold BNB, and later deposits need no new authorization", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "0" });
    const usd = await deployTestToken(chain().url, { symbol: "BAT" });
    const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
    const tank = await tankOf();
    // The first sweep deploys the contracts (once per chain and gas tank), then batches it.
    await pay(merchant, usd, ["0.5"]);
    await runEngine(db(), chain().url);
    expect((await db().select().from(sweepBatches)).map((b) => [b.kind, b.size, b.status])).toEqual([
      ["deploy_sweeper", 0, "mined"],
      ["deploy_delegate", 0, "mined"],
      ["sweep", 1, "mined"],
    ]);

    const addresses = await pay(merchant, usd, ["1", "2", "3", "4", "5"]);
    await runEngine(db(), chain().url);
    const tankTransactions = await chain().client.getTransactionCount({ address: tank });
    expect(tankTransactions).toBe(4); // two deployments, the first batch, this one

    expect(await knownSweepMode(db(), "bsc")).toBe("batched"); // what /api/health shows per chain

    const [, batch] = await sweeps();
    expect(batch).toMatchObject({ size: 5, authorizations: 5, status: "mined" });
    expect(await tokenBalance(chain().url, usd, MERCHANT_WALLET)).toBe(parseUnits("15.5", 18));
    const delegation = `0xef0100${serviceSweepContracts().delegate.slice(2).toLowerCase()}`;
    for (const address of addresses) {
      expect(await tokenBalance(chain().url, usd, address)).toBe(0n);
      expect(await chain().client.getBalance({ address })).toBe(0n);
      expect(await chain().client.getCode({ address })).toBe(delegation);
    }
    const rows = (await db().select().from(forwards)).filter((f) => f.batchId === batch!.id);
    expect(rows.map((f) => [f.status, f.batchId]).sort()).toEqual(Array(5).fill(["completed", batch!.id]));
    expect(new Set(rows.map((f) => f.batchIndex))).toEqual(new Set([0, 1, 2, 3, 4]));

    // More tokens to two of the same (public) addresses: a plain call, no authorization again.
    // Both mined before the engine looks (a send's answer can come before its block under load).
    for (const [i, amount] of [
      [0, "7"],
      [1, "8"],
    ] as const) {
      await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, addresses[i]!, parseUnits(amount, 18)) });
    }
    await runEngine(db(), chain().url);
    const again = (await sweeps())[2];
    expect(again).toMatchObject({ size: 2, authorizations: 0, status: "mined" });
    expect(await tokenBalance(chain().url, usd, MERCHANT_WALLET)).toBe(parseUnits("30.5", 18));
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(tankTransactions + 1);
  });

  it("fails only the refusing address's entry: the rest of the batch is swept, and a forged Swept event from the token counts for nothing", async () => {
    const evil = await deployHostileToken(chain().url, "EVB");
    const merchant = await setUpMerchant({ contractAddress: evil.address, network: "bsc" });
    const [refusing, honestA, honestB] = (await pay(merchant, evil.address, ["1", "2", "3"], chain().url, false)) as [
      Address,
      Address,
      Address,
    ];
    for (const [address, amount] of [
      [refusing, "1"],
      [honestA, "2"],
      [honestB, "3"],
    ] as const)
      await evil.call("mint", [address, parseUnits(amount, 18)]);
    // Entry 0 refuses once the transaction pays gas (its simulation passes); every other transfer
    // of this token claims "entry 0 swept fine" with a Swept look-alike.
    await evil.call("setRefusesFrom", [refusing, true]);
    await evil.call("setForgeSwept", [true, 0n]);
    await runEngine(db(), chain().url);

    const [batch] = (await sweeps()).slice(-1);
    expect(batch).toMatchObject({ size: 3, status: "mined" });
    const byAddress = new Map(
      (await db().select().from(forwards).where(eq(forwards.tokenContract, evil.address))).map((f) => [f.fromAddress, f]),
    );
    expect(byAddress.get(honestA)).toMatchObject({ status: "completed", batchId: batch!.id });
    expect(byAddress.get(honestB)).toMatchObject({ status: "completed", batchId: batch!.id });
    // The refusing one fell back to the classic path, which tried and holds it for the operator.
    expect(byAddress.get(refusing)).toMatchObject({ status: "held", classicOnly: true, batchId: null });
    expect(byAddress.get(refusing)!.heldReason).toMatch(/reverted on chain/);
    expect(await tokenBalance(chain().url, evil.address, MERCHANT_WALLET)).toBe(parseUnits("5", 18));
    expect(await tokenBalance(chain().url, evil.address, refusing)).toBe(parseUnits("1", 18));
  });

  it("waits for company within its bounds: nothing is sent until the batch is full or the oldest waited long enough", async () => {
    useConfig({
      BSC_RPC_URL: chain().url,
      NEXTAUTH_SECRET: SECRET,
      CONFIRMATIONS: "0",
      SWEEP_BATCH_SIZE: "3",
      SWEEP_BATCH_WAIT_MS: "60000",
    });
    const usd = await deployTestToken(chain().url, { symbol: "WAI" });
    const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
    const before = (await sweeps()).length;
    const advanceAll = async () => {
      for (let i = 0; i < 20; i++) if ((await scanNetworkStep(db(), "bsc")).behind === 0) break;
      await db()
        .update(forwards)
        .set({ nextAttemptAt: new Date(0) });
      for (const { forwardId } of await dueForwardsStep(db(), 100)) await forwardStep(db(), forwardId);
    };
    await pay(merchant, usd, ["1", "2"]);
    await advanceAll();
    expect(await sweeps()).toHaveLength(before);
    expect((await db().select().from(forwards).where(eq(forwards.tokenContract, usd))).map((f) => f.status)).toEqual([
      "pending",
      "pending",
    ]);

    await pay(merchant, usd, ["3"]);
    await advanceAll();
    const state = JSON.stringify(
      (await db().select().from(forwards).where(eq(forwards.tokenContract, usd))).map((f) => [f.status, f.lastError, f.attempts]),
    );
    expect(
      (await sweeps()).slice(before).map((b) => b.size),
      state,
    ).toEqual([3]);

    // Alone, but waiting longer than SWEEP_BATCH_WAIT_MS: it goes.
    await pay(merchant, usd, ["4"]);
    await scanNetworkStep(db(), "bsc");
    await db()
      .update(forwards)
      .set({ createdAt: new Date(Date.now() - 61_000) })
      .where(eq(forwards.status, "pending"));
    await advanceAll();
    expect((await sweeps()).slice(before).map((b) => b.size)).toEqual([3, 1]);
    await runEngine(db(), chain().url);
    expect(await tokenBalance(chain().url, usd, MERCHANT_WALLET)).toBe(parseUnits("10", 18));
  });

  it("lets the first entry of a pending batch check it every second; the others stand by, out of the queue's way", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "0" });
    const usd = await deployTestToken(chain().url, { symbol: "QUE" });
    const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
    await pay(merchant, usd, ["1", "2", "3"]);
    await scanNetworkStep(db(), "bsc");
    await chain().client.setAutomine(false); // the batch stays unmined
    try {
      const [first] = await dueForwardsStep(db());
      await forwardStep(db(), first!.forwardId);
      const members = async () =>
        (await db().select().from(forwards).where(eq(forwards.tokenContract, usd))).sort((a, b) => a.batchIndex! - b.batchIndex!);
      const soon = Date.now() + 5_000;
      const check = async () => {
        const rows = await members();
        expect(rows.map((f) => f.status)).toEqual(["batched", "batched", "batched"]);
        expect(rows[0]!.nextAttemptAt.getTime()).toBeLessThan(soon);
        for (const sibling of rows.slice(1)) expect(sibling.nextAttemptAt.getTime()).toBeGreaterThan(soon);
        return rows;
      };
      const [driver] = await check();
      await db()
        .update(forwards)
        .set({ nextAttemptAt: new Date(0) })
        .where(eq(forwards.id, driver!.id));
      await forwardStep(db(), driver!.id); // the batch is still on its way
      await check();
    } finally {
      await chain().client.setAutomine(true);
    }
    await chain().client.mine({ blocks: 1 });
    await db()
      .update(forwards)
      .set({ nextAttemptAt: new Date(0) });
    await runEngine(db(), chain().url);
    expect((await db().select().from(forwards).where(eq(forwards.tokenContract, usd))).every((f) => f.status === "completed")).toBe(true);
    expect(await tokenBalance(chain().url, usd, MERCHANT_WALLET)).toBe(parseUnits("6", 18));
  });

  it("sweeps the classic way on a chain without EIP-7702, deploying nothing", async () => {
    forgetBatchSupport();
    // Another chain under the same network name: scan it from its start, count the tank's nonces afresh.
    await db().delete(chainCursors);
    await db().delete(walletNonces);
    await db()
      .update(chainTransactions)
      .set({ network: sql`'earlier-chain-' || ${chainTransactions.id}` }); // the ledger of the other chain's nonces
    useConfig({ BSC_RPC_URL: oldChain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "0" });
    const usd = await deployTestToken(oldChain().url, { symbol: "OLD" });
    const merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
    await fundGasTank(oldChain().url);
    const before = await db().select().from(sweepBatches);
    const [address] = await pay(merchant, usd, ["6"], oldChain().url);
    await runEngine(db(), oldChain().url);
    const [forward] = await db().select().from(forwards).where(eq(forwards.fromAddress, address!));
    expect(forward).toMatchObject({ status: "completed", batchId: null });
    expect(forward!.gasTxHash).toMatch(/^0x/);
    expect(await db().select().from(sweepBatches)).toHaveLength(before.length);
    expect(await knownSweepMode(db(), "bsc")).toBe("classic");
    expect(await tokenBalance(oldChain().url, usd, MERCHANT_WALLET)).toBe(parseUnits("6", 18));
  });
  it("gives up deploying the sweep contracts after two deployments that were never mined (their nonces filled): the network sweeps classic", async () => {
    forgetBatchSupport();
    await db().delete(chainCursors);
    await db().delete(walletNonces);
    await db()
      .update(chainTransactions)
      .set({ network: sql`'earlier-chain-' || ${chainTransactions.id}` }); // the ledger of the other chain's nonces
    useConfig({ BSC_RPC_URL: bareChain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "0" });
    const tank = await fundGasTank(bareChain().url);
    const replaced = (kind: "deploy_sweeper" | "deploy_delegate", n: number) => ({
      network: "bsc",
      kind,
      fromAddress: tank,
      nonce: 1_000 + n,
      gasLimit: 1n,
      gasPrice: 1n,
      txHash: `0x${String(n).padStart(64, "0")}`,
      status: "replaced" as const,
    });
    await db()
      .insert(sweepBatches)
      .values([replaced("deploy_sweeper", 1), replaced("deploy_delegate", 2)]);
    expect(await batchSweepSupport(db(), "bsc")).toEqual({
      state: "classic",
      reason: "deploying the sweep contracts failed; classic sweeps until an operator looks",
    });
  });
});
