import { eq } from "drizzle-orm";
import { type Address, createWalletClient, encodeFunctionData, http, parseEther, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { appState, chainTransactions, forwards, sweepBatches } from "@/lib/db/schema";
import { assertNotServiceAddress } from "@/lib/domain/merchant-domains/gateway-addresses";
import { keyRingFor, setGasTankGeneration } from "@/lib/engine/chain/keys";
import {
  batchSweeperAbi,
  batchSweepSupport,
  forgetBatchSupport,
  serviceSweepContracts,
} from "@/lib/engine/forwarding/batched/batch-support";
import { sweeperCommand } from "@/lib/ops/admin/sweeper";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { chainAt, deployTestToken, useTestChain } from "../helpers/chain";
import { SWEEP_MODE, TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";

/**
 * The BatchSweeper's owner key from the operator's side: `npm run admin -- sweeper
 * status|pause|resume|rotate-operator` on a real chain, with the engine running against it. Paused,
 * payments are still forwarded (the classic way); after the operator role moved to a fresh gas
 * tank, batches go on from it and the old tank key moves nothing.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const keys = keyRingFor(TEST_MNEMONIC);

let merchant: Merchant;
let usd: Address;

async function payAndForward(amount: string) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: merchant.tokenId, amount, merchantWallet: MERCHANT_WALLET },
  });
  await chain().client.waitForTransactionReceipt({
    hash: await payTo(chain().url, usd, res.body.data.depositAddress, parseUnits(amount, 18)),
  });
  await runEngine(db(), chain().url);
  const [forward] = await db().select().from(forwards).where(eq(forwards.sessionId, res.body.data.sessionId));
  return { forward: forward!, depositAddress: res.body.data.depositAddress as Address };
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "0" });
  forgetBatchSupport();
  usd = await deployTestToken(chain().url, { symbol: "OWN" });
  merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
  await fundGasTank(chain().url);
});
afterAll(() => setGasTankGeneration(0));

describe.skipIf(SWEEP_MODE === "classic")("the BatchSweeper's owner", () => {
  it("shows the sweeper with its owner key and the gas tank as operator once batches started", async () => {
    expect(await sweeperCommand(db(), ["status"])).toEqual([expect.stringContaining("not deployed yet")]);
    const { forward } = await payAndForward("1");
    expect(forward).toMatchObject({ status: "completed", batchId: expect.any(Number) });
    const status = (await sweeperCommand(db(), ["status"])).join("\n");
    const contracts = serviceSweepContracts();
    expect(status).toContain(`bsc: BatchSweeper ${contracts.sweeper}`);
    expect(status).toContain(`owner     ${keys.sweeperOwnerAddress()}`);
    expect(status).toContain(`operator  ${keys.gasTankAddress(0)} (this service's gas tank)`);
    expect(status).not.toContain("PAUSED");
    // The sweep contracts and the owner are service addresses: no payout may point at them.
    for (const address of [contracts.sweeper, contracts.delegate, keys.sweeperOwnerAddress(), keys.gasTankAddress(1)]) {
      await expect(assertNotServiceAddress(db(), address, "merchantWallet")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    }
  });

  it("pauses: the owner's transaction goes through the ledger, and payments are still forwarded, the classic way", async () => {
    expect(await sweeperCommand(db(), ["pause"])).toEqual([expect.stringMatching(/^bsc: BatchSweeper paused \(0x[0-9a-f]{64}\)$/)]);
    const [admin] = await db().select().from(chainTransactions).where(eq(chainTransactions.kind, "sweeper_admin"));
    expect(admin).toMatchObject({ walletRole: "sweeper_owner", wallet: keys.sweeperOwnerAddress(), status: "mined" });
    expect(await batchSweepSupport(db(), "bsc")).toMatchObject({
      state: "classic",
      reason: expect.stringContaining("paused by its owner"),
    });
    expect((await sweeperCommand(db(), ["status"])).join("\n")).toContain("PAUSED");
    expect(await sweeperCommand(db(), ["pause"])).toEqual(["bsc: already paused"]);

    const before = await tokenBalance(chain().url, usd, MERCHANT_WALLET);
    const { forward } = await payAndForward("2");
    expect(forward).toMatchObject({ status: "completed", batchId: null });
    expect(forward.sweepTxId).not.toBeNull();
    expect(await tokenBalance(chain().url, usd, MERCHANT_WALLET)).toBe(before + parseUnits("2", 18));

    await sweeperCommand(db(), ["resume"]);
    expect((await payAndForward("3")).forward).toMatchObject({ status: "completed", batchId: expect.any(Number) });
  });

  it("rotates the operator to a fresh gas tank: batches go on from it, and the leaked old key sweeps nothing", async () => {
    await expect(sweeperCommand(db(), ["rotate-operator"])).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("--yes"),
    });
    const [oldTank, newTank] = [keys.gasTankAddress(0), keys.gasTankAddress(1)];
    const lines = await sweeperCommand(db(), ["rotate-operator", "--yes"]);
    expect(lines[0]).toMatch(new RegExp(`^bsc: operator ${oldTank} → ${newTank} \\(0x[0-9a-f]{64}\\)$`));
    expect(lines.join("\n")).toContain(`the gas tank is now ${newTank} (generation 1)`);
    expect(keys.gasTankAddress()).toBe(newTank);
    const [saved] = await db().select().from(appState).where(eq(appState.key, "gas_tank_generation"));
    expect(saved!.value).toEqual({ generation: 1 });
    expect(await sweeperCommand(db(), ["status"])).toContain(`  operator  ${newTank} (this service's gas tank)`);

    // The operator funds the new tank; the engine batches from it.
    await chain().client.setBalance({ address: newTank, value: parseEther("10") });
    const { forward, depositAddress } = await payAndForward("4");
    expect(forward.status).toBe("completed");
    const [batch] = await db().select().from(sweepBatches).where(eq(sweepBatches.id, forward.batchId!));
    expect(batch).toMatchObject({ fromAddress: newTank, status: "mined" });

    // Whoever holds the old tank key cannot sweep a delegated deposit address any more.
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, depositAddress, parseUnits("5", 18)) });
    const thief = createWalletClient({
      account: keys.signer("gasTank", 0),
      chain: await chainAt(chain().url),
      transport: http(chain().url),
    });
    const steal = encodeFunctionData({
      abi: batchSweeperAbi,
      functionName: "sweepBatch",
      args: [[{ from: depositAddress, token: usd, to: oldTank, amount: parseUnits("5", 18) }]],
    });
    const receipt = await chain().client.waitForTransactionReceipt({
      hash: await thief.sendTransaction({ to: serviceSweepContracts().sweeper, data: steal, gas: 500_000n }),
    });
    expect(receipt.status).toBe("reverted");
    expect(await tokenBalance(chain().url, usd, depositAddress)).toBe(parseUnits("5", 18));
  });

  it("refuses bad input without signing anything", async () => {
    const before = (await db().select().from(chainTransactions)).length;
    await expect(sweeperCommand(db(), ["explode"])).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(sweeperCommand(db(), ["pause", "--network", "ethereum"])).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(sweeperCommand(db(), ["status", "--network"])).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await db().select().from(chainTransactions)).length).toBe(before);
  });
});
