/**
 * BNB itself, detected: a merchant registers the catalogue's BNB without any
 * contract read, sessions priced in it or in fiat are paid by plain value transfers to the deposit
 * address, which the scanner finds by reading each block once (never a call per address). Not
 * payments: the gas tank's top-ups, a reverted transaction, a zero value. The read costs nothing
 * while nobody accepts BNB, and one call per block however many sessions are open; an attacker
 * filling a block with transfers to deposit addresses (or sending an absurd value) does not stall it.
 */

import { and, count, eq } from "drizzle-orm";
import { type Address, createWalletClient, type Hex, http, parseEther, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { chainCursors, deposits, forwards, quarantinedLogs, tokenCatalogue } from "@/lib/db/schema";
import { scanPorts } from "@/lib/domain/payments/engine-ports";
import { recordTransfers } from "@/lib/domain/payments/record-transfers";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { forgetMulticall, MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { NATIVE_LOG_INDEX, NATIVE_TOKEN } from "@/lib/engine/chain/native";
import { DEMO_BNB_USD_FEED, ensureDemoFeeds } from "@/lib/engine/dev/demo-feeds";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { type ScanResult, scanOnce } from "@/lib/engine/scanner/scanner";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { chainAt, deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const payerKey = ANVIL_DEFAULT_KEYS[1] as Hex;

let merchant: Merchant;
let usdt: Address;
let bnbId = 0;

/** Scans bsc to the head (recording as the engine does); the polls' results summed. */
async function scan(): Promise<ScanResult & { polls: number }> {
  const sum = { rpcCalls: 0, transfers: 0, ignored: 0, quarantined: 0, polls: 0 } as ScanResult & { polls: number };
  for (let i = 0; i < 20; i++) {
    const result = await scanOnce(db(), "bsc", { ...scanPorts, record: (tx, transfers) => recordTransfers(tx, transfers) });
    if (!result) break;
    sum.polls++;
    sum.rpcCalls += result.rpcCalls;
    sum.transfers += result.transfers;
    sum.ignored += result.ignored;
    sum.quarantined += result.quarantined;
    Object.assign(sum, { fromBlock: sum.fromBlock ?? result.fromBlock, toBlock: result.toBlock, head: result.head });
    if (result.behind === 0n) break;
  }
  return sum;
}
async function sendBnb(to: Address, value: bigint, options: { key?: Hex; gas?: bigint } = {}) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(options.key ?? payerKey),
    chain: await chainAt(chain().url),
    transport: http(chain().url),
  });
  const hash = await wallet.sendTransaction({ to, value, gas: options.gas });
  return chain().client.waitForTransactionReceipt({ hash });
}
async function createSession(body: Record<string, unknown>) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { merchantWallet: MERCHANT_WALLET, ...body },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data as { sessionId: string; depositAddress: Address; token: string; amount: string; qrCode: string };
}
const statusOf = async (sessionId: string) =>
  (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data;
const depositsOf = (sessionId: string) => db().select().from(deposits).where(eq(deposits.sessionId, sessionId));

beforeAll(async () => {
  await chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  forgetMulticall("bsc");
  await ensureDemoFeeds(chain().url);
  // The bsc BNB row names mainnet's feed without a heartbeat: point it at the chain's own (BNB/USD 600).
  await tokensCommand(db(), ["feed", "bsc", NATIVE_TOKEN, DEMO_BNB_USD_FEED, "--heartbeat", "3600"]);
  usdt = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  merchant = await setUpMerchant({ contractAddress: usdt, network: "bsc" });
  await scan();
});

describe("native BNB", () => {
  it("reads no block while no merchant accepts BNB: a poll of one block is getBlockNumber + getLogs", async () => {
    await chain().client.mine({ blocks: 1 });
    const result = await scan();
    expect(result.rpcCalls).toBe(2);
  });

  it("registers from the catalogue without a contract read, and then reads one block per block", async () => {
    const res = await call(registerToken, {
      method: "POST",
      headers: merchant.auth,
      body: { contractAddress: NATIVE_TOKEN, network: "bsc" },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ symbol: "BNB", name: "BNB", decimals: 18, contractAddress: NATIVE_TOKEN, network: "bsc" });
    bnbId = res.body.data.tokenId;
    const again = await call(registerToken, {
      method: "POST",
      headers: merchant.auth,
      body: { contractAddress: NATIVE_TOKEN.toLowerCase(), network: "bsc" },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.tokenId).toBe(bnbId);

    await chain().client.mine({ blocks: 1 });
    expect((await scan()).rpcCalls).toBe(3);
    // The catalogue's row disabled: no block read again.
    await db().update(tokenCatalogue).set({ enabled: false }).where(eq(tokenCatalogue.contractAddress, NATIVE_TOKEN));
    await chain().client.mine({ blocks: 1 });
    expect((await scan()).rpcCalls).toBe(2);
    await db().update(tokenCatalogue).set({ enabled: true }).where(eq(tokenCatalogue.contractAddress, NATIVE_TOKEN));
  });

  it("completes a 25 USD session paid in BNB at the feed's quote, once", async () => {
    const session = await createSession({ currency: "USD", amount: "25.00", tokens: [bnbId, merchant.tokenId], orderId: "N-1" });
    // 25 / 600 = 0.041666… BNB, rounded up to the wei.
    expect(session).toMatchObject({ token: "BNB", amount: "0.041666666666666667" });
    const receipt = await sendBnb(session.depositAddress, parseEther("0.041666666666666667"));
    const scanned = await scan();
    expect(scanned.transfers).toBe(1);
    expect(await statusOf(session.sessionId)).toMatchObject({
      status: "completed",
      paidToken: "BNB",
      paidAmount: "0.041666666666666667",
      rate: "600.00000000",
    });
    expect(await depositsOf(session.sessionId)).toEqual([
      expect.objectContaining({
        tokenContract: NATIVE_TOKEN,
        logIndex: NATIVE_LOG_INDEX,
        txHash: receipt.transactionHash,
        amount: parseEther("0.041666666666666667"),
      }),
    ]);
    // The same transfer again (a scan redone) records nothing new.
    const [d] = await depositsOf(session.sessionId);
    const { network, txHash, logIndex, blockNumber, blockHash, blockTimestamp, tokenContract, fromAddress, toAddress, amount } = d!;
    const again = { network, txHash, logIndex, blockNumber, blockHash, blockTimestamp, tokenContract, fromAddress, toAddress, amount };
    await db().transaction((tx) => recordTransfers(tx, [{ ...again, sessionId: session.sessionId }]));
    expect(await depositsOf(session.sessionId)).toHaveLength(1);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "0.041666666666666667" });
  });

  it("the whole engine completes a BNB payment and forwards it to the merchant's wallet once", async () => {
    await fundGasTank(chain().url);
    await runEngine(db(), chain().url); // what the tests above only scanned is forwarded first
    const session = await createSession({ currency: "USD", amount: "25.00", tokens: [bnbId], orderId: "N-engine" });
    const paid = parseEther("0.041666666666666667");
    const before = await chain().client.getBalance({ address: MERCHANT_WALLET });
    await sendBnb(session.depositAddress, paid);
    await runEngine(db(), chain().url);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", paidToken: "BNB", paidAmount: "0.041666666666666667" });
    await runEngine(db(), chain().url); // a second pass moves nothing more
    // Batched: the gas tank pays the batch's gas, the merchant gets every wei that arrived.
    expect((await chain().client.getBalance({ address: MERCHANT_WALLET })) - before).toBe(paid);
    expect(await chain().client.getBalance({ address: session.depositAddress })).toBe(0n);
    const [deposit] = await depositsOf(session.sessionId);
    expect(await db().select().from(forwards).where(eq(forwards.depositId, deposit!.id))).toEqual([
      expect.objectContaining({ status: "completed" }),
    ]);
  });

  it("asks for the rest of a partial BNB payment in BNB", async () => {
    const session = await createSession({ currency: "USD", amount: "30.00", tokens: [merchant.tokenId, bnbId] });
    await sendBnb(session.depositAddress, parseEther("0.025")); // half of 0.05 BNB
    await scan();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "pending", token: "BNB", amount: "0.05", receivedAmount: "0.025" });
    await sendBnb(session.depositAddress, parseEther("0.025"));
    await scan();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", paidToken: "BNB", paidAmount: "0.05" });
  });

  it("takes a session priced in BNB in wei, with a plain value-transfer payment URI", async () => {
    const session = await createSession({ tokenId: bnbId, amount: "0.5" });
    expect(session).toMatchObject({ token: "BNB", amount: "0.5" });
    await sendBnb(session.depositAddress, parseEther("0.5"));
    await scan();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "0.5" });
  });

  it("does not count the gas tank's top-up, a reverted transfer, or a zero value", async () => {
    const session = await createSession({ tokenId: bnbId, amount: "0.2" });
    // The gas tank tops the deposit address up (classic mode's gas): not a payment.
    const tank = keyRingFor(TEST_MNEMONIC).gasTankAddress();
    await chain().client.setBalance({ address: tank, value: parseEther("10") });
    await chain().client.impersonateAccount({ address: tank });
    const hash = await chain().client.sendUnsignedTransaction({ from: tank, to: session.depositAddress, value: parseEther("0.2") });
    await chain().client.waitForTransactionReceipt({ hash });
    await chain().client.stopImpersonatingAccount({ address: tank });
    // Code at the address that reverts (a delegation gone wrong): the value never moves.
    await chain().client.setCode({ address: session.depositAddress, bytecode: "0x60006000fd" });
    const reverted = await sendBnb(session.depositAddress, parseEther("0.2"), { gas: 100_000n });
    expect(reverted.status).toBe("reverted");
    await chain().client.setCode({ address: session.depositAddress, bytecode: "0x" });
    await sendBnb(session.depositAddress, 0n);

    const scanned = await scan();
    expect(scanned.transfers).toBe(0);
    expect(scanned.ignored).toBe(2);
    expect(await depositsOf(session.sessionId)).toEqual([]);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "pending", receivedAmount: null });
  });

  it("reads one block per block with many open sessions that offered BNB", async () => {
    for (let i = 0; i < 40; i++) await createSession({ tokenId: bnbId, amount: "1" });
    await scan();
    await chain().client.mine({ blocks: 5 });
    const result = await scan();
    // getBlockNumber + getLogs + one eth_getBlockByNumber per block, whatever the sessions.
    expect(result.rpcCalls).toBe(2 + 5);
  });

  it("keeps catch-up bounded: at most 50 blocks a poll", async () => {
    await chain().client.mine({ blocks: 120 });
    const results: ScanResult[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await scanOnce(db(), "bsc", { ...scanPorts, record: (tx, t) => recordTransfers(tx, t) });
      if (r) results.push(r);
    }
    expect(results.map((r) => Number(r.toBlock - r.fromBlock + 1n))).toEqual([50, 50, 20, expect.any(Number)]);
  });

  it("sets a native transfer the database refuses aside with its reason (log index -1), records the others, and moves on", async () => {
    const [bad, good] = [await createSession({ tokenId: bnbId, amount: "1" }), await createSession({ tokenId: bnbId, amount: "1" })];
    const badTx = await sendBnb(bad.depositAddress, parseEther("1"));
    const goodTx = await sendBnb(good.depositAddress, parseEther("1"));
    const refusing = async (tx: Parameters<typeof recordTransfers>[0], transfers: Parameters<typeof recordTransfers>[1]) => {
      if (transfers.some((t) => t.txHash === badTx.transactionHash))
        throw Object.assign(new Error("database says 22003"), { code: "22003" });
      return recordTransfers(tx, transfers);
    };
    let result: ScanResult | null = null;
    for (let i = 0; i < 3 && (!result || result.behind > 0n); i++) result = await scanOnce(db(), "bsc", { ...scanPorts, record: refusing });
    const [parked] = await db().select().from(quarantinedLogs).where(eq(quarantinedLogs.txHash, badTx.transactionHash));
    expect(parked).toMatchObject({
      logIndex: NATIVE_LOG_INDEX,
      contractAddress: NATIVE_TOKEN,
      reason: "recording failed: database says 22003",
    });
    expect(await depositsOf(bad.sessionId)).toEqual([]);
    expect(await statusOf(good.sessionId)).toMatchObject({ status: "completed" });
    const [cursor] = await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
    expect(cursor!.lastScannedBlock >= goodTx.blockNumber && cursor!.lastScannedBlock >= badTx.blockNumber).toBe(true);
  });

  it("is not stalled by an attacker: a full block of transfers to deposit addresses, and an absurd value", async () => {
    const targets = await Promise.all(Array.from({ length: 12 }, () => createSession({ tokenId: bnbId, amount: "1" })));
    await scan();
    const attacker = privateKeyToAccount(generatePrivateKey());
    await chain().client.setBalance({ address: attacker.address, value: parseEther("3000000") });
    const wallet = createWalletClient({ account: attacker, chain: await chainAt(chain().url), transport: http(chain().url) });
    await chain().client.setAutomine(false);
    try {
      let nonce = 0;
      const sends: Promise<Hex>[] = [];
      // 300 transactions in one block: most to strangers, one wei to each of 12 deposit addresses.
      for (let i = 0; i < 288; i++) {
        const to = privateKeyToAccount(generatePrivateKey()).address;
        sends.push(wallet.sendTransaction({ to, value: 1n, nonce: nonce++, gas: 21_000n, gasPrice: parseUnits("1", 9) }));
      }
      for (const t of targets.slice(1))
        sends.push(wallet.sendTransaction({ to: t.depositAddress, value: 1n, nonce: nonce++, gas: 21_000n, gasPrice: parseUnits("1", 9) }));
      // And an absurd value (two million BNB).
      sends.push(
        wallet.sendTransaction({
          to: targets[0]!.depositAddress,
          value: parseEther("2000000"),
          nonce: nonce++,
          gas: 21_000n,
          gasPrice: parseUnits("1", 9),
        }),
      );
      await Promise.all(sends);
      await chain().client.mine({ blocks: 1 });
    } finally {
      await chain().client.setAutomine(true);
    }
    const block = await chain().client.getBlock();
    expect(block.transactions.length).toBe(300);

    const result = await scan();
    // getBlockNumber + getLogs + the block + its receipts in one call (more than a few matches).
    expect(result.rpcCalls).toBe(4);
    expect(result.transfers + result.quarantined).toBe(12);
    const [cursor] = await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
    expect(cursor?.lastScannedBlock).toBe(block.number);
    for (const t of targets.slice(1))
      expect(await statusOf(t.sessionId)).toMatchObject({ status: "pending", receivedAmount: "0.000000000000000001" });
    const huge = await depositsOf(targets[0]!.sessionId);
    const parked = await db()
      .select({ n: count() })
      .from(quarantinedLogs)
      .where(and(eq(quarantinedLogs.logIndex, NATIVE_LOG_INDEX), eq(quarantinedLogs.blockNumber, block.number)));
    // Either recorded as it is or set aside with its reason: never a stuck scanner.
    expect(huge.length + Number(parked[0]?.n)).toBe(1);
  });
});
