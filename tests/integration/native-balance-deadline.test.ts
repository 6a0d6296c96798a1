/**
 * The balance poller against the chain's history: it reads only blocks the
 * scanner has read, never above the confirmed head, so a reorganisation leaves no phantom; a
 * payment a contract makes in a session's last seconds counts although the poll that sees it comes
 * after the deadline (the balance is read again at the deadline's own block), one after it is
 * recorded late and still forwarded, and so is one within the late window after that; a cancel's
 * block decides like the expiry. Nothing is read while no open session offers BNB.
 */

import { and, eq } from "drizzle-orm";
import { type Address, type Hex, parseEther } from "viem";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { POST as cancel } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { chainCursors, deposits, forwards, nativeBalanceWatch, paymentSessions } from "@/lib/db/schema";
import { nativeWatch } from "@/lib/domain/payments/native-watch";
import { recordTransfers } from "@/lib/domain/payments/record-transfers";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { forgetMulticall, MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { NATIVE_BALANCE_LOG_INDEX, NATIVE_TOKEN } from "@/lib/engine/chain/native";
import { NATIVE_LATE_EVERY_BLOCKS, NATIVE_POLL_EVERY_BLOCKS, pollNativeBalances } from "@/lib/engine/scanner/native-balance-poll";
import { scanRoundStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";
import { deployInternalPayer } from "../helpers/internal-payer";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;

let merchant: Merchant;
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
  return res.body.data as { sessionId: string; depositAddress: Address };
}
const statusOf = async (sessionId: string) =>
  (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data;
const depositsOf = (sessionId: string) => db().select().from(deposits).where(eq(deposits.sessionId, sessionId)).orderBy(deposits.id);
const scan = async () => {
  const round = await scanRoundStep(db(), 20, { networks: ["bsc"] });
  if (round.failed.length > 0) throw new Error(round.failed[0]!.error);
};
async function scanAndPoll(blocks = NATIVE_POLL_EVERY_BLOCKS): Promise<void> {
  await chain().client.mine({ blocks });
  await scan();
}
const chainNow = async () => Number((await chain().client.getBlock()).timestamp);
/** A session priced in BNB whose deadline is `inSeconds` after the chain's latest block (chain time, not the wall clock). */
async function sessionExpiringIn(inSeconds: number) {
  const session = await createSession({ tokenId: bnbId, amount: "0.2" });
  const deadline = (await chainNow()) + inSeconds;
  await db()
    .update(paymentSessions)
    .set({ expiresAt: new Date(deadline * 1000) })
    .where(eq(paymentSessions.id, session.sessionId));
  await scanAndPoll(); // registered with that deadline
  return { ...session, deadline };
}

beforeAll(async () => {
  await chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  configure();
  forgetMulticall("bsc");
  const usdt = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  merchant = await setUpMerchant({ contractAddress: usdt, network: "bsc" });
  payer = await deployInternalPayer(chain().url);
  await fundGasTank(chain().url);
  await scan();
});

beforeEach(() => {
  configure();
});

describe("the balance poller and the chain's history", () => {
  it("reads nothing while no open session offers BNB", async () => {
    await createSession({ tokenId: merchant.tokenId, amount: "1" });
    await chain().client.mine({ blocks: 1 });
    await scan();
    const [cursor] = await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
    const result = await pollNativeBalances(db(), "bsc", {
      atBlock: cursor!.lastScannedBlock,
      port: nativeWatch,
      record: recordTransfers,
      everyBlocks: 0,
    });
    expect(result).toMatchObject({ watched: 0, read: 0, rpcCalls: 0, block: null });
    const res = await call(registerToken, {
      method: "POST",
      headers: merchant.auth,
      body: { contractAddress: NATIVE_TOKEN, network: "bsc" },
    });
    bnbId = res.body.data.tokenId;
  });

  it("leaves no phantom after a reorganisation: it reads only confirmed blocks", async () => {
    configure({ CONFIRMATIONS: "3" });
    const session = await createSession({ tokenId: bnbId, amount: "0.3" });
    await scanAndPoll();
    await chain().client.mine({ blocks: NATIVE_POLL_EVERY_BLOCKS });
    const fork = await chain().client.snapshot();
    // Paid in the head block, then one block on top: a poll is due, and reads two blocks below the head.
    await payer.pay(session.depositAddress, parseEther("0.3"));
    await chain().client.mine({ blocks: 1 });
    await scan();
    expect(await depositsOf(session.sessionId)).toEqual([]);
    // The branch is abandoned: the payment never happened.
    await chain().client.revert({ id: fork });
    for (let i = 0; i < 3; i++) await scanAndPoll();
    expect(await depositsOf(session.sessionId)).toEqual([]);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "pending", receivedAmount: null });

    // Paid again on the surviving branch: recorded once it is three blocks deep.
    await payer.pay(session.depositAddress, parseEther("0.3"));
    await scanAndPoll();
    await scanAndPoll();
    expect((await depositsOf(session.sessionId)).map((d) => d.amount)).toEqual([parseEther("0.3")]);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed" });
  });

  it("counts a payment of the last seconds although the poll that sees it comes after the deadline", async () => {
    const session = await sessionExpiringIn(40);
    await chain().client.setNextBlockTimestamp({ timestamp: BigInt(session.deadline - 1) });
    const paid = await payer.pay(session.depositAddress, parseEther("0.2"));
    await chain().client.setNextBlockTimestamp({ timestamp: BigInt(session.deadline + 2) });
    await scanAndPoll();
    const [deposit] = await depositsOf(session.sessionId);
    // Read at the deadline's own block: the last one mined by then, the payment's.
    expect(deposit).toMatchObject({ logIndex: NATIVE_BALANCE_LOG_INDEX, blockNumber: paid.blockNumber, late: false });
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "0.2" });
    const [row] = await db().select().from(nativeBalanceWatch).where(eq(nativeBalanceWatch.address, session.depositAddress));
    expect(row).toMatchObject({ finalBlock: expect.any(BigInt), recordedBlock: paid.blockNumber });
  });

  it("records a payment after the deadline as late, forwards it, and still sees one within the late window", async () => {
    const session = await sessionExpiringIn(40);
    await chain().client.setNextBlockTimestamp({ timestamp: BigInt(session.deadline + 3) });
    const paid = await payer.pay(session.depositAddress, parseEther("0.2"));
    await scanAndPoll();
    const [deposit] = await depositsOf(session.sessionId);
    expect(deposit).toMatchObject({ logIndex: NATIVE_BALANCE_LOG_INDEX, late: true, amount: parseEther("0.2") });
    expect(deposit!.blockNumber > paid.blockNumber).toBe(true);
    expect(await statusOf(session.sessionId)).toMatchObject({ receivedAmount: null, late: true });
    const [row] = await db().select().from(nativeBalanceWatch).where(eq(nativeBalanceWatch.address, session.depositAddress));
    expect(row?.finalBlock).not.toBeNull();

    await runEngine(db(), chain().url);
    const swept = await db()
      .select()
      .from(forwards)
      .where(and(eq(forwards.fromAddress, session.depositAddress), eq(forwards.tokenContract, NATIVE_TOKEN)));
    expect(swept).toEqual([expect.objectContaining({ status: "completed", amount: parseEther("0.2") })]);

    // Within the late window the address is still read, every NATIVE_LATE_EVERY_BLOCKS blocks.
    await payer.pay(session.depositAddress, parseEther("0.05"));
    await scanAndPoll(NATIVE_LATE_EVERY_BLOCKS);
    expect((await depositsOf(session.sessionId)).map((d) => [d.amount, d.late])).toEqual([
      [parseEther("0.2"), true],
      [parseEther("0.05"), true],
    ]);
  });

  it("counts a payment mined up to a cancel's block; the session completes instead of staying cancelled", async () => {
    const session = await createSession({ tokenId: bnbId, amount: "0.1" });
    await scanAndPoll();
    const paid = await payer.pay(session.depositAddress, parseEther("0.1"));
    const cancelled = await call(cancel, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      params: { sessionId: session.sessionId },
    });
    expect(cancelled.status).toBe(200);
    await scanAndPoll();
    const [deposit] = await depositsOf(session.sessionId);
    expect(deposit!.blockNumber >= paid.blockNumber).toBe(true);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "0.1" });
  });
});
