/**
 * BNB in, whoever sends it: BNB a contract sends with an internal call (a Safe, a
 * 4337 wallet, an exchange) is no transaction to the deposit address, so only the balance poller
 * sees it. It completes the session within one poll (NATIVE_POLL_EVERY_BLOCKS blocks) and is
 * forwarded once; a plain transfer is counted once (the block reader's), several addresses paid in
 * one block get a deposit each, the gas tank's top-ups in classic mode are never payments, a poll
 * done again — at once, by two pollers, after a restart — records nothing twice. The cost per poll
 * and a node without creation calls: native-balance-cost.test.ts.
 */

import { and, eq, inArray } from "drizzle-orm";
import { type Address, createWalletClient, type Hex, http, parseEther, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { chainCursors, deposits, forwards, nativeBalancePolls, nativeBalanceWatch, paymentSessions } from "@/lib/db/schema";
import { nativeWatch } from "@/lib/domain/payments/native-watch";
import { recordTransfers } from "@/lib/domain/payments/record-transfers";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { forgetMulticall, MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { NATIVE_BALANCE_LOG_INDEX, NATIVE_LOG_INDEX, NATIVE_TOKEN, nativeBalanceDepositId } from "@/lib/engine/chain/native";
import { DEMO_BNB_USD_FEED, ensureDemoFeeds } from "@/lib/engine/dev/demo-feeds";
import { NATIVE_POLL_EVERY_BLOCKS, pollNativeBalances } from "@/lib/engine/scanner/native-balance-poll";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { expireDueStep, planForwardsStep, scanRoundStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { chainAt, deployTestToken, payerKey, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { forwardRound, fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";
import { deployInternalPayer } from "../helpers/internal-payer";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;

let merchant: Merchant;
let usdt: Address;
let bnbId = 0;
let payer: Awaited<ReturnType<typeof deployInternalPayer>>;

const configure = (extra: Record<string, string> = {}) =>
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1", ...extra });

async function createSession(body: Record<string, unknown>) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { merchantWallet: MERCHANT_WALLET, ...body },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data as { sessionId: string; depositAddress: Address; amount: string };
}
const statusOf = async (sessionId: string) =>
  (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data;
const nativeDepositsOf = (sessionId: string) =>
  db()
    .select()
    .from(deposits)
    .where(and(eq(deposits.sessionId, sessionId), eq(deposits.tokenContract, NATIVE_TOKEN)))
    .orderBy(deposits.id);

/** Lets a poll come due (NATIVE_POLL_EVERY_BLOCKS blocks), then one round of the scan job: the block reader, then the poll. */
async function scanAndPoll(): Promise<void> {
  await chain().client.mine({ blocks: NATIVE_POLL_EVERY_BLOCKS });
  const round = await scanRoundStep(db(), 20, { networks: ["bsc"] });
  if (round.failed.length > 0) throw new Error(round.failed[0]!.error);
}
/** The poll itself at the block the scanner has read up to, due or not. */
async function pollNow(options: { atBlock?: bigint } = {}) {
  const [cursor] = await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
  return pollNativeBalances(db(), "bsc", {
    atBlock: options.atBlock ?? cursor!.lastScannedBlock,
    port: nativeWatch,
    record: recordTransfers,
    everyBlocks: 0,
  });
}

beforeAll(async () => {
  await chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  configure();
  forgetMulticall("bsc");
  await ensureDemoFeeds(chain().url);
  await tokensCommand(db(), ["feed", "bsc", NATIVE_TOKEN, DEMO_BNB_USD_FEED, "--heartbeat", "3600"]);
  usdt = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  merchant = await setUpMerchant({ contractAddress: usdt, network: "bsc" });
  const res = await call(registerToken, {
    method: "POST",
    headers: merchant.auth,
    body: { contractAddress: NATIVE_TOKEN, network: "bsc" },
  });
  bnbId = res.body.data.tokenId;
  payer = await deployInternalPayer(chain().url);
  await fundGasTank(chain().url);
  await scanAndPoll();
});

beforeEach(() => {
  configure();
});

describe("BNB sent by a contract's internal call", () => {
  it("completes the session within one poll, keyed by (block, address), and is forwarded once", async () => {
    const session = await createSession({ tokenId: bnbId, amount: "0.5" });
    await scanAndPoll(); // registered, nothing there yet
    const paid = await payer.pay(session.depositAddress, parseEther("0.5"));
    // The block reader sees a transaction to the contract, not to the deposit address.
    await scanRoundStep(db(), 20, { networks: ["bsc"] });
    expect(await nativeDepositsOf(session.sessionId)).toEqual([]);

    await scanAndPoll();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "0.5" });
    const [deposit] = await nativeDepositsOf(session.sessionId);
    const block = await chain().client.getBlock({ blockNumber: deposit!.blockNumber });
    expect(deposit).toMatchObject({
      logIndex: NATIVE_BALANCE_LOG_INDEX,
      txHash: nativeBalanceDepositId(block.hash, session.depositAddress),
      blockHash: block.hash,
      amount: parseEther("0.5"),
      fromAddress: "0x0000000000000000000000000000000000000000",
      late: false,
    });
    // Within one poll of the payment: at most NATIVE_POLL_EVERY_BLOCKS (+ the first poll's) blocks after it.
    expect(deposit!.blockNumber - paid.blockNumber).toBeLessThanOrEqual(BigInt(2 * NATIVE_POLL_EVERY_BLOCKS));

    const before = await chain().client.getBalance({ address: MERCHANT_WALLET });
    await runEngine(db(), chain().url);
    await scanAndPoll();
    await runEngine(db(), chain().url);
    expect(await chain().client.getBalance({ address: session.depositAddress })).toBe(0n);
    const received = (await chain().client.getBalance({ address: MERCHANT_WALLET })) - before;
    expect(received > parseEther("0.499") && received <= parseEther("0.5")).toBe(true);
    const swept = await db()
      .select()
      .from(forwards)
      .where(and(eq(forwards.fromAddress, session.depositAddress), eq(forwards.tokenContract, NATIVE_TOKEN)));
    expect(swept).toEqual([expect.objectContaining({ status: "completed", amount: parseEther("0.5") })]);
    // After the sweep the balance is 0 and the ledger says why: nothing new.
    await scanAndPoll();
    expect(await nativeDepositsOf(session.sessionId)).toHaveLength(1);
  });

  it("counts a plain transfer once (the block reader's), and an internal one beside it once more", async () => {
    const session = await createSession({ tokenId: bnbId, amount: "1" });
    await scanAndPoll();
    const wallet = createWalletClient({
      account: privateKeyToAccount(payerKey),
      chain: await chainAt(chain().url),
      transport: http(chain().url),
    });
    await chain().client.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: session.depositAddress, value: parseEther("0.3") }),
    });
    await scanAndPoll();
    await scanAndPoll();
    expect((await nativeDepositsOf(session.sessionId)).map((d) => [d.logIndex, d.amount])).toEqual([[NATIVE_LOG_INDEX, parseEther("0.3")]]);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "pending", receivedAmount: "0.3" });

    await payer.pay(session.depositAddress, parseEther("0.7"));
    await scanAndPoll();
    await scanAndPoll();
    expect((await nativeDepositsOf(session.sessionId)).map((d) => [d.logIndex, d.amount])).toEqual([
      [NATIVE_LOG_INDEX, parseEther("0.3")],
      [NATIVE_BALANCE_LOG_INDEX, parseEther("0.7")],
    ]);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "1", overpaid: false });
  });

  it("records one deposit per address when one transaction pays several in one block", async () => {
    const sessions = [await createSession({ tokenId: bnbId, amount: "0.1" }), await createSession({ tokenId: bnbId, amount: "0.2" })];
    await scanAndPoll();
    await payer.payMany(
      sessions.map((s) => s.depositAddress),
      [parseEther("0.1"), parseEther("0.2")],
    );
    await scanAndPoll();
    const [a, b] = [await nativeDepositsOf(sessions[0]!.sessionId), await nativeDepositsOf(sessions[1]!.sessionId)];
    expect(a).toEqual([expect.objectContaining({ amount: parseEther("0.1"), logIndex: NATIVE_BALANCE_LOG_INDEX })]);
    expect(b).toEqual([
      expect.objectContaining({ amount: parseEther("0.2"), logIndex: NATIVE_BALANCE_LOG_INDEX, blockNumber: a[0]!.blockNumber }),
    ]);
    expect(a[0]!.txHash).not.toBe(b[0]!.txHash);
    for (const s of sessions) expect(await statusOf(s.sessionId)).toMatchObject({ status: "completed" });
  });

  it("completes a fiat session that offers BNB, at its BNB quote", async () => {
    const session = await createSession({ currency: "USD", amount: "25.00", tokens: [bnbId, merchant.tokenId] });
    expect(session).toMatchObject({ amount: "0.041666666666666667" });
    await scanAndPoll();
    await payer.pay(session.depositAddress, parseEther("0.041666666666666667"));
    await scanAndPoll();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", paidToken: "BNB", paidAmount: "0.041666666666666667" });
  });

  it("reads a completed session's address at the late pace only, and drops a session that is gone", async () => {
    const session = await createSession({ tokenId: bnbId, amount: "0.05" });
    const gone = await createSession({ tokenId: bnbId, amount: "0.05" });
    await scanAndPoll();
    await payer.pay(session.depositAddress, parseEther("0.05"));
    await db().delete(paymentSessions).where(eq(paymentSessions.id, gone.sessionId));
    await scanAndPoll();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed" });
    await scanAndPoll();
    const watched = await db()
      .select()
      .from(nativeBalanceWatch)
      .where(inArray(nativeBalanceWatch.address, [session.depositAddress, gone.depositAddress]));
    expect(watched).toEqual([expect.objectContaining({ address: session.depositAddress, finalBlock: expect.any(BigInt) })]);
  });
});

describe("classic sweeps: the gas tank's top-ups are not payments", () => {
  it("a token sent to a BNB session is swept with a top-up; no poll counts the top-up or its change", async () => {
    configure({ SWEEP_MODE: "classic" });
    await runEngine(db(), chain().url); // earlier tests' forwards out of the way
    const session = await createSession({ tokenId: bnbId, amount: "0.4" });
    await scanAndPoll();
    await payTo(chain().url, usdt, session.depositAddress, parseUnits("5", 18));
    // The sweep step by step, each transaction mined before the ledger hears of it, and a poll then:
    // the top-up in flight is skipped, once settled it is explained.
    await chain().client.setAutomine(false);
    try {
      for (let round = 0; round < 12; round++) {
        await scanRoundStep(db(), 20, { networks: ["bsc"] });
        await expireDueStep(db());
        await planForwardsStep(db());
        await forwardRound(db());
        await chain().client.mine({ blocks: 1 });
        await scanAndPoll();
        expect(await nativeDepositsOf(session.sessionId)).toEqual([]);
        const open = await db()
          .select()
          .from(forwards)
          .where(and(eq(forwards.fromAddress, session.depositAddress), inArray(forwards.status, ["pending", "gas_sent", "sweep_sent"])));
        if (open.length === 0) break;
      }
    } finally {
      await chain().client.setAutomine(true);
    }
    const [sweep] = await db().select().from(forwards).where(eq(forwards.fromAddress, session.depositAddress));
    expect(sweep).toMatchObject({ status: "completed", tokenContract: usdt });
    expect(sweep!.gasAmount! > 0n).toBe(true);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "pending", receivedAmount: null });

    // The change the top-up left stays explained; a payment after it counts exactly.
    const change = await chain().client.getBalance({ address: session.depositAddress });
    await payer.pay(session.depositAddress, parseEther("0.4"));
    await scanAndPoll();
    expect(await chain().client.getBalance({ address: session.depositAddress })).toBe(change + parseEther("0.4"));
    expect((await nativeDepositsOf(session.sessionId)).map((d) => d.amount)).toEqual([parseEther("0.4")]);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "0.4", overpaid: false });
  });
});

describe("exactly once", () => {
  it("records nothing twice: the same block again, two pollers at once, a later block after a restart", async () => {
    const session = await createSession({ tokenId: bnbId, amount: "0.25" });
    await scanAndPoll();
    await payer.pay(session.depositAddress, parseEther("0.1"));
    await scanRoundStep(db(), 20, { networks: ["bsc"] });
    const [cursor] = await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
    const at = cursor!.lastScannedBlock;
    // Two pollers at once, at the same block and at an earlier one.
    const results = await Promise.all([pollNow({ atBlock: at }), pollNow({ atBlock: at }), pollNow({ atBlock: at - 1n })]);
    expect(results.reduce((sum, r) => sum + r.recorded, 0)).toBe(1);
    // The same block again, and later blocks: a new process knows only the database.
    expect((await pollNow({ atBlock: at })).recorded).toBe(0);
    await db().delete(nativeBalancePolls);
    await scanAndPoll();
    await scanAndPoll();
    expect((await nativeDepositsOf(session.sessionId)).map((d) => d.amount)).toEqual([parseEther("0.1")]);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "pending", receivedAmount: "0.1" });
  });
});
