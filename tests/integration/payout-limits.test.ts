/**
 * Payout batches inside the rules (#13): BatchPayer is deployed once per chain even
 * when two wallets record chunks before the first deployment is mined; each item counts against the
 * plan's daily withdrawals; a batch holds its chunks' estimated gas against the daily gas budget
 * from the moment it is recorded (released as they are signed, or when it is rejected), and a batch
 * the budget cannot carry is refused with nothing recorded.
 */

import { eq } from "drizzle-orm";
import { type Abi, type Address, createWalletClient, getAddress, type Hex, http, parseEther, parseEventLogs } from "viem";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as addDomain } from "@/app/api/user/domains/route";
import { POST as createPayouts } from "@/app/api/v1/payouts/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { chainTransactions, payoutBatches, payoutItems, plans, withdrawals } from "@/lib/db/schema";
import { recordPayoutBatch, rejectPayoutBatch } from "@/lib/domain/payouts/record-batch";
import { recordPayoutChunk } from "@/lib/domain/payouts/record-chunk";
import { sendPayoutBatch, sendPayoutChunk } from "@/lib/domain/payouts/send-batch";
import { batchPayerAbi } from "@/lib/engine/chain/batch-payer";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { chainAt, deployTestToken, payer, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import forging from "../helpers/contracts/forging-token.json";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank } from "../helpers/engine";
import { call } from "../helpers/http";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
let merchant: Merchant;
let secondDomain: number;
let token: Address;
const recipient = (i: number) => `0x${(0xfeed00 + i).toString(16).padStart(40, "0")}` as Address;
const items = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ toAddress: recipient(from + i), amount: "1" }));
const batchRows = async () => (await db().select().from(payoutBatches)).length;
const setPlan = (values: Partial<typeof plans.$inferInsert>) => db().update(plans).set(values).where(eq(plans.id, "starter"));

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  await fundGasTank(chain().url);
  const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  const added = await call(addDomain, { method: "POST", headers: merchant.auth, body: { domain: "https://two.example.com" } });
  secondDomain = added.body.data.domainId;
  const keys = keyRingFor(TEST_MNEMONIC);
  const wallets = [keys.withdrawalAddress(merchant.domainId), keys.withdrawalAddress(secondDomain)];
  token = await deployTestToken(chain().url, { symbol: "LIM", mintTo: wallets });
  const { POST } = await import("@/app/api/user/tokens/route");
  await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(db(), "bsc", token);
  merchant.tokenId = (
    await call(POST, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
  ).body.data.tokenId;
  for (const wallet of wallets) await chain().client.setBalance({ address: wallet, value: parseEther("5") });
});

const requester = () => ({ accountId: merchant.userId, apiKeyId: null, requestedBy: merchant.userId });
const input = (domainId: number, from: number, n: number) => ({ domainId, tokenId: merchant.tokenId, items: items(from, n) });

describe("BatchPayer, once per chain", () => {
  it("is deployed by one chunk only, when two wallets record chunks before the deployment is mined", async () => {
    const first = await recordPayoutBatch(db(), requester(), input(merchant.domainId, 0, 2), { awaitingApproval: false });
    const second = await recordPayoutBatch(db(), requester(), input(secondDomain, 10, 2), { awaitingApproval: false });
    const sameWallet = await recordPayoutBatch(db(), requester(), input(merchant.domainId, 20, 2), { awaitingApproval: false });
    await chain().client.setAutomine(false);
    try {
      const a = await recordPayoutChunk(db(), first.id);
      expect(a?.map((r) => r.kind)).toEqual(["payout_deploy", "payout_approve", "payout"]);
      await sendPayoutChunk(db(), a!);
      // Another wallet: its pay would reach no code before the deployment is mined, so it waits.
      expect(await recordPayoutChunk(db(), second.id)).toBeNull();
      // The same wallet: its nonce comes after the deployment's, so it goes on, without deploying again.
      const c = await recordPayoutChunk(db(), sameWallet.id);
      expect(c?.map((r) => r.kind)).toEqual(["payout_approve", "payout"]);
      await sendPayoutChunk(db(), c!);
      await chain().client.mine({ blocks: 1 });
    } finally {
      await chain().client.setAutomine(true);
    }
    // Once the deployment is mined, the job records the waiting chunk, without a deployment of its own.
    await tendLedgerStep(db());
    const secondWallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(secondDomain);
    const ofSecond = await db().select().from(chainTransactions).where(eq(chainTransactions.wallet, secondWallet));
    expect(ofSecond.map((r) => r.kind).sort()).toEqual(["payout", "payout_approve"]);
    for (let i = 0; i < 5; i++) {
      await chain().client.mine({ blocks: 1 });
      await tendLedgerStep(db());
    }
    const ledger = await db().select().from(chainTransactions);
    expect(ledger.filter((r) => r.kind === "payout_deploy")).toHaveLength(1);
    expect(ledger.filter((r) => r.status === "reverted")).toEqual([]);
    const batches = await db().select().from(payoutBatches);
    expect(batches.map((b) => b.status)).toEqual(["completed", "completed", "completed"]);
  });
});

describe("BatchPayer's receipt", () => {
  it("cannot be forged from inside a payment: the token's call back into BatchPayer reverts, the item fails", async () => {
    const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
    const deployer = createWalletClient({ account: payer, chain: await chainAt(chain().url), transport: http(chain().url) });
    const hash = await deployer.deployContract({ abi: forging.abi as Abi, bytecode: forging.bytecode as Hex });
    const forger = getAddress((await chain().client.waitForTransactionReceipt({ hash })).contractAddress as Address);
    await chain().client.waitForTransactionReceipt({
      hash: await deployer.writeContract({
        address: forger,
        abi: forging.abi as Abi,
        functionName: "mint",
        args: [wallet, parseEther("10")],
      }),
    });
    const { POST } = await import("@/app/api/user/tokens/route");
    await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(db(), "bsc", forger);
    const registered = await call(POST, { method: "POST", headers: merchant.auth, body: { contractAddress: forger, network: "bsc" } });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const tokenId = registered.body.data.tokenId;
    const batch = await recordPayoutBatch(
      db(),
      requester(),
      { domainId: merchant.domainId, tokenId, items: [{ toAddress: recipient(50), amount: "1" }] },
      { awaitingApproval: false },
    );
    await sendPayoutBatch(db(), batch.id);
    for (let i = 0; i < 5; i++) {
      await chain().client.mine({ blocks: 1 });
      await tendLedgerStep(db());
    }
    const [settled] = await db().select().from(payoutItems).where(eq(payoutItems.batchId, batch.id));
    expect(settled?.status).toBe("failed");
    expect(await chain().client.readContract({ address: forger, abi: forging.abi as Abi, functionName: "forged" })).toBe(false);
    const receipt = await chain().client.getTransactionReceipt({ hash: settled!.txHash as Hex });
    const paid = parseEventLogs({ abi: batchPayerAbi, eventName: "Paid", logs: receipt.logs });
    expect(paid.map((log) => (log.args as unknown as { ok: boolean }).ok)).toEqual([false]);
  });
});

describe("plan limits", () => {
  afterEach(() => setPlan({ dailyWithdrawals: null, dailyGasBudget: null }));

  it("counts each item against the day's withdrawals: a batch that would pass the limit is refused whole, nothing recorded", async () => {
    const today = 7; // the batches above
    await setPlan({ dailyWithdrawals: today + 4 });
    const before = await batchRows();
    const tooMany = await call(createPayouts, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: input(merchant.domainId, 100, 5),
    });
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.error).toMatchObject({ code: "RATE_LIMITED", reason: "daily-withdrawals-used-up" });
    expect(tooMany.body.error.message).toMatch(/each payout item counts/);
    expect(tooMany.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await batchRows()).toBe(before);
    const fits = await call(createPayouts, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: input(merchant.domainId, 100, 3),
    });
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
    const withdrawal = { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: recipient(200), amount: "1" };
    expect((await call(send, { method: "POST", headers: { "x-api-key": merchant.apiKey }, body: withdrawal })).status).toBe(201);
    const over = await call(send, { method: "POST", headers: { "x-api-key": merchant.apiKey }, body: withdrawal });
    expect(over.status).toBe(429);
    expect(over.body.error.reason).toBe("daily-withdrawals-used-up");
  });

  it("holds a batch's estimated gas against the budget until its chunks are signed or it is rejected", async () => {
    await setPlan({ dailyGasBudget: null });
    const held = await recordPayoutBatch(db(), requester(), input(merchant.domainId, 300, 3), { awaitingApproval: true });
    expect(held.gasReserved).toBeGreaterThan(0n);
    // Room for one such batch beyond today's spend, not two.
    const spent = await (await import("@/lib/domain/gas/spend")).gasSpentSince(db(), merchant.userId, new Date(Date.UTC(2000, 0, 1)));
    await setPlan({ dailyGasBudget: spent + held.gasReserved + held.gasReserved / 2n });
    const before = await batchRows();
    const refused = await call(createPayouts, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: input(merchant.domainId, 310, 3),
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: "RATE_LIMITED", reason: "daily-gas-budget-used-up" });
    expect(refused.body.error.message).toMatch(/held by open payout batches/);
    expect(await batchRows()).toBe(before);
    await rejectPayoutBatch(db(), held.id, "test");
    const [released] = await db().select().from(payoutBatches).where(eq(payoutBatches.id, held.id));
    expect(released?.gasReserved).toBe(0n);
    const accepted = await call(createPayouts, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: input(merchant.domainId, 310, 3),
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    // Its one chunk was signed at once: nothing of it is held any more.
    const [sent] = await db().select().from(payoutBatches).where(eq(payoutBatches.id, accepted.body.data.batchId));
    expect(sent?.gasReserved).toBe(0n);
  });

  it("refuses a batch whose gas alone is more than a whole day's budget, asking to split it", async () => {
    await setPlan({ dailyGasBudget: 1_000n });
    const before = await batchRows();
    const res = await call(createPayouts, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: input(merchant.domainId, 400, 2),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", reason: "payout-gas-above-budget" });
    expect(res.body.error.message).toMatch(/split it/);
    expect(await batchRows()).toBe(before);
    expect(
      await db()
        .select()
        .from(withdrawals)
        .where(eq(withdrawals.toAddress, recipient(400))),
    ).toEqual([]);
    await setPlan({ dailyGasBudget: null });
  });
});
