import { and, eq, inArray } from "drizzle-orm";
import { type Address, createWalletClient, encodeDeployData, type Hex, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { chainTransactions, deposits, forwards, paymentSessions, sweepBatches, tokenCatalogue, tokens } from "@/lib/db/schema";
import { recordTransfers } from "@/lib/domain/payments/record-transfers";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { NATIVE_LOG_INDEX, NATIVE_TOKEN } from "@/lib/engine/chain/native";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { depositDelegateAbi, serviceSweepContracts } from "@/lib/engine/forwarding/batched/batch-support";
import { DUST_PAUSE_SECONDS } from "@/lib/engine/forwarding/classic/native-sweep";
import { formatReconciliation, reconcile } from "@/lib/ops/custody/reconcile";
import { recoverFunds } from "@/lib/ops/custody/recover";
import { forwardStep, planForwardsStep, scanRoundStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { chainAt, deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import oldDelegate from "../helpers/contracts/deposit-delegate-v1.json";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, skipToNextDue } from "../helpers/engine";
import { call } from "../helpers/http";

/**
 * BNB itself forwarded: a native deposit is recorded exactly as the scanner records one
 * (the domain recorder, token NATIVE_TOKEN, log index -1, the real transaction), and the engine
 * forwards it once — batched (the delegate sends the value; the tank pays the batch, the merchant
 * gets it all; an address delegated to the older delegate is authorized again) and classic (the
 * address pays its own 21,000 gas; the gas tank pays nothing; dust waits; a rerun sends nothing).
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const SECRET = "integration-test-secret-0123456789";
const PAYER_KEY = ANVIL_DEFAULT_KEYS[1]!;

/** A merchant that accepts BNB (its tokens row written directly: registration of BNB is another change). */
async function bnbMerchant(): Promise<Merchant & { bnbTokenId: number }> {
  const token = await deployTestToken(chain().url, { symbol: "NFT" });
  const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
  const [row] = await db()
    .insert(tokens)
    .values({ userId: merchant.userId, network: "bsc", contractAddress: NATIVE_TOKEN, symbol: "BNB", name: "BNB", decimals: 18 })
    .returning({ id: tokens.id });
  return { ...merchant, bnbTokenId: row!.id };
}

async function bnbSession(merchant: Merchant & { bnbTokenId: number }, amount: string): Promise<{ id: string; address: Address }> {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: merchant.bnbTokenId, amount, merchantWallet: MERCHANT_WALLET },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return { id: res.body.data.sessionId ?? res.body.data.id, address: res.body.data.depositAddress };
}

/** Sends BNB from an anvil key and records it through the domain recorder as the scanner would. */
async function payBnb(session: { id: string; address: Address }, value: bigint): Promise<Hex> {
  const url = chain().url;
  const wallet = createWalletClient({ account: privateKeyToAccount(PAYER_KEY), chain: await chainAt(url), transport: http(url) });
  const hash = await wallet.sendTransaction({ to: session.address, value });
  const receipt = await chain().client.waitForTransactionReceipt({ hash });
  const block = await chain().client.getBlock({ blockNumber: receipt.blockNumber });
  const [stored] = await db()
    .select({ id: paymentSessions.id })
    .from(paymentSessions)
    .where(eq(paymentSessions.depositAddress, session.address));
  await db().transaction((tx) =>
    recordTransfers(tx, [
      {
        network: "bsc",
        txHash: hash,
        logIndex: NATIVE_LOG_INDEX,
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash,
        blockTimestamp: new Date(Number(block.timestamp) * 1000),
        tokenContract: NATIVE_TOKEN,
        fromAddress: privateKeyToAccount(PAYER_KEY).address,
        toAddress: session.address,
        amount: value,
        sessionId: stored!.id,
      },
    ]),
  );
  return hash;
}

const balanceOf = (address: Address) => chain().client.getBalance({ address });
const nativeForwards = (...from: Address[]) =>
  db()
    .select()
    .from(forwards)
    .where(and(eq(forwards.tokenContract, NATIVE_TOKEN), inArray(forwards.fromAddress, from)))
    .orderBy(forwards.id);

describe("native BNB forwarding, classic: the address pays its own gas", () => {
  let tank: Address;
  beforeEach(async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "0", SWEEP_MODE: "classic" });
    tank = await fundGasTank(chain().url);
  });

  it("sends the balance less 21,000 × gas price to the merchant, once; the gas tank pays nothing; a rerun sends nothing", async () => {
    const merchant = await bnbMerchant();
    const session = await bnbSession(merchant, "0.5");
    const before = await balanceOf(MERCHANT_WALLET);
    const tankBefore = { balance: await balanceOf(tank), nonce: await chain().client.getTransactionCount({ address: tank }) };
    await payBnb(session, parseEther("0.5"));
    const [recorded] = await db().select().from(deposits).where(eq(deposits.toAddress, session.address));
    expect(recorded).toMatchObject({ tokenContract: NATIVE_TOKEN, logIndex: -1, amount: parseEther("0.5") });

    await runEngine(db(), chain().url);
    const [forward] = await nativeForwards(session.address);
    expect(forward).toMatchObject({ status: "completed", amount: parseEther("0.5"), gasAmount: 0n, sweepGasLimit: 21_000n, gasTxId: null });
    const fee = 21_000n * forward!.gasPrice!;
    expect((await balanceOf(MERCHANT_WALLET)) - before).toBe(parseEther("0.5") - fee);
    expect(await balanceOf(session.address)).toBe(0n);
    // The tank signed nothing and paid nothing.
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(tankBefore.nonce);
    expect(await balanceOf(tank)).toBe(tankBefore.balance);
    const sent = await db().select().from(chainTransactions).where(eq(chainTransactions.wallet, session.address));
    expect(sent.map((r) => [r.kind, r.status])).toEqual([["sweep", "mined"]]);

    // A rerun (and the scanner's own record of the same transaction later) moves nothing more.
    await runEngine(db(), chain().url);
    expect(await nativeForwards(session.address)).toHaveLength(1);
    expect((await balanceOf(MERCHANT_WALLET)) - before).toBe(parseEther("0.5") - fee);
  });

  it("sends the recorded bytes again after a crash before its broadcast, never a second transfer", async () => {
    const merchant = await bnbMerchant();
    const session = await bnbSession(merchant, "0.2");
    await payBnb(session, parseEther("0.2"));
    const before = await balanceOf(MERCHANT_WALLET);
    await planForwardsStep(db());
    const [planned] = await nativeForwards(session.address);
    await chain().client.setAutomine(false);
    try {
      await forwardStep(db(), planned!.id);
      const [signed] = await nativeForwards(session.address);
      expect(signed!.status).toBe("sweep_sent");
      // As if the process died between recording and broadcasting: the node never got the transfer.
      await chain().client.dropTransaction({ hash: signed!.sweepTxHash as Hex });
      // Steps that find the transfer recorded but not mined re-send the same bytes, never sign another.
      for (let i = 0; i < 3; i++) {
        await skipToNextDue(db());
        await forwardStep(db(), planned!.id);
      }
      const [inFlight] = await nativeForwards(session.address);
      expect(inFlight).toMatchObject({ status: "sweep_sent", sweepTxHash: signed!.sweepTxHash });
      await chain().client.mine({ blocks: 1 });
    } finally {
      await chain().client.setAutomine(true);
    }
    await runEngine(db(), chain().url);
    const [forward] = await nativeForwards(session.address);
    expect(forward!.status).toBe("completed");
    expect(await db().select().from(chainTransactions).where(eq(chainTransactions.wallet, session.address))).toHaveLength(1);
    expect(await chain().client.getTransactionCount({ address: session.address })).toBe(1);
    expect((await balanceOf(MERCHANT_WALLET)) - before).toBe(parseEther("0.2") - 21_000n * forward!.gasPrice!);
  });

  it("waits as dust while the balance cannot pay its own gas, asking the tank nothing; more BNB moves it all", async () => {
    // An operator's minimum low enough for a completion sweep below the fee (the seed's 0.001 BNB pays 21,000 gas up to 47 gwei).
    await db().update(tokenCatalogue).set({ minForwardAmount: 1n }).where(eq(tokenCatalogue.contractAddress, NATIVE_TOKEN));
    const merchant = await bnbMerchant();
    const session = await bnbSession(merchant, "0.000000001");
    const tankNonce = await chain().client.getTransactionCount({ address: tank });
    // 1 gwei pays 21,000 gas only below 47,620 wei a gas: the completion sweep cannot pay for itself.
    const dust = 1_000_000_000n;
    await payBnb(session, dust);
    await planForwardsStep(db());
    const [waiting] = await nativeForwards(session.address);
    const startedAt = Date.now();
    expect((await forwardStep(db(), waiting!.id)).outcome).toBe("waiting");
    const [after] = await nativeForwards(session.address);
    expect(after).toMatchObject({ status: "pending", attempts: 0 });
    expect(after!.lastError).toMatch(/dust/);
    expect(after!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(startedAt + (DUST_PAUSE_SECONDS - 5) * 1000);
    expect(await balanceOf(session.address)).toBe(dust);
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(tankNonce);

    // More arrives: it joins the waiting forward, which then moves everything, less its own fee.
    const before = await balanceOf(MERCHANT_WALLET);
    await payBnb(session, parseEther("0.01"));
    await runEngine(db(), chain().url);
    const [done] = await nativeForwards(session.address);
    expect(done).toMatchObject({ status: "completed", amount: dust + parseEther("0.01") });
    expect((await balanceOf(MERCHANT_WALLET)) - before).toBe(dust + parseEther("0.01") - 21_000n * done!.gasPrice!);
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(tankNonce);
    await db()
      .update(tokenCatalogue)
      .set({ minForwardAmount: parseEther("0.001") })
      .where(eq(tokenCatalogue.contractAddress, NATIVE_TOKEN));
  });

  it("holds, spending nothing, a BNB forward whose target contract refuses BNB", async () => {
    const merchant = await bnbMerchant();
    // A contract without a payable fallback as the merchant's wallet: every BNB transfer to it reverts.
    const refusing = await deployTestToken(chain().url, { symbol: "NOP" });
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.bnbTokenId, amount: "0.1", merchantWallet: refusing },
    });
    expect(res.status).toBe(201);
    const session = { id: "", address: res.body.data.depositAddress as Address };
    await payBnb(session, parseEther("0.1"));
    await runEngine(db(), chain().url);
    const [forward] = await nativeForwards(session.address);
    expect(forward!.status).toBe("held");
    expect(forward!.heldReason).toMatch(/refuses BNB/);
    expect(await balanceOf(session.address)).toBe(parseEther("0.1"));
    expect(await chain().client.getTransactionCount({ address: session.address })).toBe(0);
  });

  it("a token sweep of an address that also holds a payer's BNB tops it up rather than spend that BNB on gas", async () => {
    const merchant = await bnbMerchant();
    const session = await bnbSession(merchant, "0.3");
    // The merchant's token reaches the address first (another accepted token: credited, and forwarded), and is
    // planned first; the payer's BNB arrives before its sweep runs, so the token sweep finds it there.
    const [registered] = await db().select().from(tokens).where(eq(tokens.id, merchant.tokenId));
    await chain().client.waitForTransactionReceipt({
      hash: await payTo(chain().url, registered!.contractAddress as Address, session.address, parseEther("10")),
    });
    await scanRoundStep(db(), 10, { networks: ["bsc"] });
    await planForwardsStep(db());
    await payBnb(session, parseEther("0.3"));
    const before = await balanceOf(MERCHANT_WALLET);
    await runEngine(db(), chain().url);
    const rows = await db().select().from(forwards).where(eq(forwards.fromAddress, session.address)).orderBy(forwards.id);
    const token = rows.find((r) => r.tokenContract === registered!.contractAddress)!;
    expect([token.status, token.heldReason]).toEqual(["completed", null]);
    expect(token.gasAmount).toBeGreaterThan(0n); // the tank topped it up
    const native = rows.find((r) => r.tokenContract === NATIVE_TOKEN)!;
    expect(native.status).toBe("completed");
    // The merchant got at least the payer's BNB less the native sweep's own fee.
    expect((await balanceOf(MERCHANT_WALLET)) - before).toBeGreaterThanOrEqual(parseEther("0.3") - 21_000n * native.gasPrice!);
  });
});

describe("native BNB forwarding, batched (EIP-7702): the delegate sends the value", () => {
  beforeEach(async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "0", SWEEP_MODE: "batched" });
    await fundGasTank(chain().url);
  });

  it("sweeps the whole BNB balance in a batch; the merchant receives all of it, once", async () => {
    const merchant = await bnbMerchant();
    const a = await bnbSession(merchant, "0.4");
    const b = await bnbSession(merchant, "0.6");
    const before = await balanceOf(MERCHANT_WALLET);
    await payBnb(a, parseEther("0.4"));
    await payBnb(b, parseEther("0.6"));
    await runEngine(db(), chain().url);
    const rows = await nativeForwards(a.address, b.address);
    expect(rows.map((f) => f.status)).toEqual(["completed", "completed"]);
    expect(rows.every((f) => f.batchId !== null && !f.classicOnly)).toBe(true);
    const [batch] = await db()
      .select()
      .from(sweepBatches)
      .where(and(eq(sweepBatches.kind, "sweep"), eq(sweepBatches.tokenContract, NATIVE_TOKEN)));
    expect(batch).toMatchObject({ size: 2, status: "mined" });
    expect((await balanceOf(MERCHANT_WALLET)) - before).toBe(parseEther("1"));
    const delegation = `0xef0100${serviceSweepContracts().delegate.slice(2).toLowerCase()}`;
    for (const s of [a, b]) {
      expect(await balanceOf(s.address)).toBe(0n);
      expect(await chain().client.getCode({ address: s.address })).toBe(delegation);
    }
    // A rerun moves nothing more.
    await runEngine(db(), chain().url);
    expect((await balanceOf(MERCHANT_WALLET)) - before).toBe(parseEther("1"));

    // The delegate obeys the sweeper alone: anyone else asking a delegated address for its BNB is refused.
    const url = chain().url;
    const thief = createWalletClient({
      account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[2]!),
      chain: await chainAt(url),
      transport: http(url),
    });
    // BNB on the address that no transaction brought (a plain transfer would be a payment the scanner records and forwards).
    await chain().client.setBalance({ address: a.address, value: parseEther("0.1") });
    await expect(
      chain().client.simulateContract({
        account: thief.account,
        address: a.address,
        abi: depositDelegateAbi,
        functionName: "sweep",
        args: [NATIVE_TOKEN, thief.account.address, parseEther("0.1")],
      }),
    ).rejects.toThrow(/NotSweeper/);
    expect(await balanceOf(a.address)).toBe(parseEther("0.1"));
  });

  it("authorizes an address delegated to the older delegate again, in its next batch", async () => {
    const merchant = await bnbMerchant();
    const session = await bnbSession(merchant, "0.25");
    const contracts = serviceSweepContracts();
    // The delegate before native sweeps, with the same sweeper: its sweeper() answers as the new one's does.
    const url = chain().url;
    const funder = createWalletClient({
      account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[2]!),
      chain: await chainAt(url),
      transport: http(url),
    });
    const deployed = await chain().client.waitForTransactionReceipt({
      hash: await funder.sendTransaction({
        data: encodeDeployData({ abi: oldDelegate.abi, bytecode: oldDelegate.bytecode as Hex, args: [contracts.sweeper] }),
      }),
    });
    const [stored] = await db().select().from(paymentSessions).where(eq(paymentSessions.depositAddress, session.address));
    const key = keyRingFor(TEST_MNEMONIC).signer("deposit", stored!.depositIndex);
    const authorization = await key.signAuthorization({
      address: deployed.contractAddress!,
      chainId: 56,
      nonce: await chain().client.getTransactionCount({ address: session.address }),
    });
    await chain().client.waitForTransactionReceipt({
      hash: await funder.sendTransaction({ to: session.address, value: 0n, authorizationList: [authorization] }),
    });
    expect(await chain().client.getCode({ address: session.address })).toBe(`0xef0100${deployed.contractAddress!.slice(2).toLowerCase()}`);

    const before = await balanceOf(MERCHANT_WALLET);
    await payBnb(session, parseEther("0.25"));
    await runEngine(db(), chain().url);
    const [forward] = await nativeForwards(session.address);
    expect(forward).toMatchObject({ status: "completed", classicOnly: false });
    const [batch] = await db().select().from(sweepBatches).where(eq(sweepBatches.id, forward!.batchId!));
    expect(batch).toMatchObject({ size: 1, authorizations: 1, status: "mined" });
    expect(await chain().client.getCode({ address: session.address })).toBe(`0xef0100${contracts.delegate.slice(2).toLowerCase()}`);
    expect((await balanceOf(MERCHANT_WALLET)) - before).toBe(parseEther("0.25"));
  });
});

describe("BNB the scanner does not see: reconcile finds it, recover moves it, never what a forward is moving", () => {
  const RESCUE = "0x1111111111111111111111111111111111111111" as Address;
  beforeEach(async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "0", SWEEP_MODE: "classic" });
    await fundGasTank(chain().url);
  });

  it("lists BNB on an address that offered it but has no native deposit recorded, and recover --include-bnb moves it", async () => {
    const merchant = await bnbMerchant();
    const session = await bnbSession(merchant, "0.05");
    // As a contract's internal call would send it: value arrives, no transaction to the address, nothing recorded.
    const url = chain().url;
    await chain().client.setBalance({ address: session.address, value: (await balanceOf(session.address)) + parseEther("0.05") });
    await chain().client.mine({ blocks: 1 });
    await runEngine(db(), url); // the scanner's cursor passes the block; it records nothing native

    const result = await reconcile(db(), { network: "bsc" });
    const found = result.differences.filter((d) => d.address === session.address);
    expect(found.map((d) => [d.kind, d.contract, d.symbol])).toEqual([["untracked", NATIVE_TOKEN, "BNB"]]);
    expect(found[0]!.message).toMatch(/0\.05 BNB more than the ledger knows of.*recover --include-bnb/);
    expect(formatReconciliation(result).join("\n")).toMatch(/bsc BNB 0xEeee/i);

    const lines: string[] = [];
    const report = await recoverFunds(db(), { network: "bsc", to: RESCUE, includeBnb: true, gap: 20, print: (l) => lines.push(l) });
    expect(report.bnb?.notMoved).toBe(0);
    expect(await balanceOf(session.address)).toBeLessThan(parseEther("0.0001"));
    expect(await balanceOf(RESCUE)).toBeGreaterThan(parseEther("0.0499"));
  });

  it("leaves a deposit address whose BNB sweep is in flight to that forward", async () => {
    const merchant = await bnbMerchant();
    const session = await bnbSession(merchant, "0.07");
    await payBnb(session, parseEther("0.07"));
    const before = await balanceOf(MERCHANT_WALLET);
    await planForwardsStep(db());
    const [planned] = await nativeForwards(session.address);
    await chain().client.setAutomine(false);
    try {
      await forwardStep(db(), planned!.id);
      expect((await nativeForwards(session.address))[0]!.status).toBe("sweep_sent");
      const lines: string[] = [];
      await recoverFunds(db(), { network: "bsc", to: RESCUE, includeBnb: true, dryRun: true, gap: 20, print: (l) => lines.push(l) });
      expect(lines.join("\n")).toContain(`${session.address}: left to its forward in flight`);
      expect(lines.some((l) => l.includes(session.address) && l.includes("0.07 BNB"))).toBe(false);
      await chain().client.mine({ blocks: 1 });
    } finally {
      await chain().client.setAutomine(true);
    }
    await runEngine(db(), chain().url);
    expect((await balanceOf(MERCHANT_WALLET)) - before).toBe(
      parseEther("0.07") - 21_000n * (await nativeForwards(session.address))[0]!.gasPrice!,
    );
  });
});
