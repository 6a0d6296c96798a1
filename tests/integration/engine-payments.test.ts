import { eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as cancel } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { deposits, forwards, paymentSessions, sweepBatches } from "@/lib/db/schema";
import { serviceSweepContracts } from "@/lib/engine/forwarding/batched/batch-support";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, payer, useTestChain } from "../helpers/chain";
import { SWEEP_MODE, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;

let merchant: Merchant;
let usd: Address;

async function newSession(amount: string, extra: Record<string, unknown> = {}, m = merchant) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": m.apiKey },
    body: { tokenId: m.tokenId, amount, merchantWallet: MERCHANT_WALLET, ...extra },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data as { sessionId: string; depositAddress: Address };
}
const statusOf = async (sessionId: string, m = merchant) =>
  (await call(status, { headers: { "x-api-key": m.apiKey }, params: { sessionId } })).body.data;
const settle = () => runEngine(db(), chain().url);

beforeAll(async () => {
  // Two confirmations (the transfer's block and one on top): each test sees a transfer mined but not confirmed yet.
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "2" });
  usd = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
});

describe("chain engine: detect, complete, forward", () => {
  it("completes an exact payment and forwards it to the merchant, leaving the deposit address empty", async () => {
    const tank = await fundGasTank(chain().url);
    const tankBefore = await chain().client.getBalance({ address: tank });
    const merchantBefore = await tokenBalance(chain().url, usd, MERCHANT_WALLET);

    const session = await newSession("25.5");
    const hash = await payTo(chain().url, usd, session.depositAddress, parseUnits("25.5", 18));
    await chain().client.waitForTransactionReceipt({ hash });
    await settle(); // the transfer is not confirmed yet (CONFIRMATIONS=2)
    expect((await statusOf(session.sessionId)).status).toBe("pending");

    await chain().client.mine({ blocks: 1 });
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "25.5", txHash: hash, overpaid: false });
    expect(await tokenBalance(chain().url, usd, MERCHANT_WALLET)).toBe(merchantBefore + parseUnits("25.5", 18));
    expect(await tokenBalance(chain().url, usd, session.depositAddress)).toBe(0n);

    const [deposit] = await db().select().from(deposits).where(eq(deposits.sessionId, session.sessionId));
    expect(deposit).toMatchObject({ txHash: hash, fromAddress: payer.address, late: false, amount: parseUnits("25.5", 18) });
    const [forward] = await db().select().from(forwards).where(eq(forwards.depositId, deposit!.id));
    expect(forward).toMatchObject({ status: "completed", toAddress: MERCHANT_WALLET });
    if (SWEEP_MODE === "classic") {
      // The gas tank sent exactly the sweep's gas limit × price: the estimate × 1.3, below the cap;
      // what is left on the address is the limit's unused part, used by its next sweep.
      expect(forward!.gasAmount).toBe(forward!.sweepGasLimit! * forward!.gasPrice!);
      expect(forward!.sweepGasLimit!).toBeLessThanOrEqual(150_000n);
      expect(forward!.sweepGasLimit!).toBeLessThanOrEqual((forward!.gasUsed! * 3n) / 2n);
      const dust = await chain().client.getBalance({ address: session.depositAddress });
      expect(dust).toBe((forward!.sweepGasLimit! - forward!.gasUsed!) * forward!.gasPrice!);
      expect(await chain().client.getBalance({ address: tank })).toBe(tankBefore - forward!.gasAmount! - 21_000n * forward!.gasPrice!);
    } else {
      // One type-4 transaction of the gas tank swept it: the address got no BNB and delegated on the way.
      const tankTransactions = await db().select().from(sweepBatches);
      const batch = tankTransactions.find((t) => t.id === forward!.batchId)!;
      expect(batch).toMatchObject({ kind: "sweep", status: "mined", size: 1, authorizations: 1 });
      expect(
        tankTransactions
          .filter((t) => t.kind !== "sweep")
          .map((t) => [t.kind, t.status])
          .sort(),
      ).toEqual([
        ["deploy_delegate", "mined"],
        ["deploy_sweeper", "mined"],
      ]);
      expect(forward).toMatchObject({
        gasAmount: null,
        gasTxHash: null,
        sweepTxHash: batch.txHash,
        gasUsed: batch.gasUsed,
        classicOnly: false,
      });
      expect(await chain().client.getBalance({ address: session.depositAddress })).toBe(0n);
      expect(await chain().client.getCode({ address: session.depositAddress })).toBe(
        `0xef0100${serviceSweepContracts().delegate.slice(2).toLowerCase()}`,
      );
      const spent = tankTransactions.reduce((sum, t) => sum + t.gasUsed! * t.gasPrice, 0n);
      expect(await chain().client.getBalance({ address: tank })).toBe(tankBefore - spent);
    }

    // Scanning the same blocks again records nothing twice.
    await db()
      .update((await import("@/lib/db/schema")).chainCursors)
      .set({ lastScannedBlock: 0n });
    await settle();
    expect(await db().select().from(deposits).where(eq(deposits.sessionId, session.sessionId))).toHaveLength(1);
    expect(await db().select().from(forwards).where(eq(forwards.depositId, deposit!.id))).toHaveLength(1);
  });

  it("adds partial payments up: pending with receivedAmount, then completed", async () => {
    const session = await newSession("10");
    const first = await payTo(chain().url, usd, session.depositAddress, parseUnits("4", 18));
    await chain().client.waitForTransactionReceipt({ hash: first });
    await chain().client.mine({ blocks: 1 });
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "pending", receivedAmount: "4", txHash: first });
    const second = await payTo(chain().url, usd, session.depositAddress, parseUnits("6", 18));
    await chain().client.waitForTransactionReceipt({ hash: second });
    await chain().client.mine({ blocks: 1 });
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "10", txHash: second, overpaid: false });
    expect(await tokenBalance(chain().url, usd, session.depositAddress)).toBe(0n);
    const sessionForwards = await db()
      .select({ status: forwards.status, amount: forwards.amount })
      .from(forwards)
      .innerJoin(deposits, eq(deposits.id, forwards.depositId))
      .where(eq(deposits.sessionId, session.sessionId));
    expect(sessionForwards.map((f) => [f.status, f.amount])).toEqual([
      ["completed", parseUnits("4", 18)],
      ["completed", parseUnits("6", 18)],
    ]);
  });

  it("completes an overpayment with overpaid and forwards all of it", async () => {
    const session = await newSession("1");
    const before = await tokenBalance(chain().url, usd, MERCHANT_WALLET);
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, session.depositAddress, parseUnits("1.75", 18)) });
    await chain().client.mine({ blocks: 1 });
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "1.75", overpaid: true });
    expect(await tokenBalance(chain().url, usd, MERCHANT_WALLET)).toBe(before + parseUnits("1.75", 18));
  });

  it("records a payment after expiry as late (status stays expired) and still forwards it", async () => {
    const session = await newSession("3");
    await db()
      .update(paymentSessions)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(paymentSessions.id, session.sessionId));
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, session.depositAddress, parseUnits("3", 18)) });
    await chain().client.mine({ blocks: 1 });
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({
      status: "expired",
      receivedAmount: null,
      txHash: null,
      late: true,
      lateAmount: "3",
    });
    const [deposit] = await db().select().from(deposits).where(eq(deposits.sessionId, session.sessionId));
    expect(deposit!.late).toBe(true);
    expect(await tokenBalance(chain().url, usd, session.depositAddress)).toBe(0n);
  });

  it("completes a session whose transfer was mined before expiresAt but confirmed after it (expired → completed)", async () => {
    const session = await newSession("2");
    const hash = await payTo(chain().url, usd, session.depositAddress, parseUnits("2", 18));
    const receipt = await chain().client.waitForTransactionReceipt({ hash });
    const block = await chain().client.getBlock({ blockNumber: receipt.blockNumber });
    await db()
      .update(paymentSessions)
      .set({ expiresAt: new Date(Number(block.timestamp) * 1000) })
      .where(eq(paymentSessions.id, session.sessionId));
    await settle(); // not confirmed yet: only the expiry happens
    expect((await statusOf(session.sessionId)).status).toBe("expired");
    await chain().client.mine({ blocks: 1 });
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", txHash: hash, receivedAmount: "2" });
  });

  it("completes a session cancelled after its payment was mined but before the gateway saw it (cancel after payment)", async () => {
    const session = await newSession("5");
    const hash = await payTo(chain().url, usd, session.depositAddress, parseUnits("5", 18));
    await chain().client.waitForTransactionReceipt({ hash }); // mined, not yet confirmed: the session still looks unpaid
    await new Promise((r) => setTimeout(r, 1100)); // the cancel comes strictly after the block's second
    const cancelled = await call(cancel, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      params: { sessionId: session.sessionId },
    });
    expect(cancelled.body.data.status).toBe("cancelled");
    await chain().client.mine({ blocks: 1 });
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", txHash: hash, receivedAmount: "5", late: false });
    expect(await tokenBalance(chain().url, usd, session.depositAddress)).toBe(0n);
  });

  it("keeps a cancelled session cancelled when it is paid later, and forwards the funds", async () => {
    const session = await newSession("5");
    await call(cancel, { method: "POST", headers: { "x-api-key": merchant.apiKey }, params: { sessionId: session.sessionId } });
    await new Promise((r) => setTimeout(r, 1100)); // the next block's time is after the cancel
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, session.depositAddress, parseUnits("5", 18)) });
    await chain().client.mine({ blocks: 1 });
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "cancelled", late: true, lateAmount: "5" });
    const [deposit] = await db().select().from(deposits).where(eq(deposits.sessionId, session.sessionId));
    expect(deposit!.late).toBe(true);
    expect(await tokenBalance(chain().url, usd, session.depositAddress)).toBe(0n);
  });

  it("does not count another registered token sent to the address, but still forwards it", async () => {
    const other = await deployTestToken(chain().url, { symbol: "OTH" });
    await setUpMerchant({ contractAddress: other, network: "bsc" }); // registered, so the scanner watches it
    const session = await newSession("5");
    const before = await tokenBalance(chain().url, other, MERCHANT_WALLET);
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, other, session.depositAddress, parseUnits("5", 18)) });
    await chain().client.mine({ blocks: 1 });
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "pending", receivedAmount: null, late: true, lateAmount: null });
    const [deposit] = await db().select().from(deposits).where(eq(deposits.sessionId, session.sessionId));
    expect(deposit).toMatchObject({ late: true, tokenContract: other });
    expect(await tokenBalance(chain().url, other, MERCHANT_WALLET)).toBe(before + parseUnits("5", 18));
    expect(await tokenBalance(chain().url, other, session.depositAddress)).toBe(0n);
  });

  it("handles a 6-decimal token", async () => {
    const six = await deployTestToken(chain().url, { symbol: "SIX", decimals: 6 });
    const other = await setUpMerchant({ contractAddress: six, network: "bsc" });
    const session = await newSession("12.345678", {}, other);
    const before = await tokenBalance(chain().url, six, MERCHANT_WALLET);
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, six, session.depositAddress, 12_345_678n) });
    await chain().client.mine({ blocks: 1 });
    await settle();
    expect(await statusOf(session.sessionId, other)).toMatchObject({
      status: "completed",
      receivedAmount: "12.345678",
      amount: "12.345678",
    });
    expect(await tokenBalance(chain().url, six, MERCHANT_WALLET)).toBe(before + 12_345_678n);
  });

  it("completes many payments mined in one block", async () => {
    const sessions = await Promise.all(Array.from({ length: 8 }, (_, i) => newSession(String(i + 1))));
    await chain().client.setAutomine(false);
    try {
      for (const [i, s] of sessions.entries()) await payTo(chain().url, usd, s.depositAddress, parseUnits(String(i + 1), 18));
      await chain().client.mine({ blocks: 1 });
    } finally {
      await chain().client.setAutomine(true);
    }
    const blocks = new Set<bigint>();
    await chain().client.mine({ blocks: 1 });
    await settle();
    for (const [i, s] of sessions.entries()) {
      expect(await statusOf(s.sessionId)).toMatchObject({ status: "completed", receivedAmount: String(i + 1) });
      const [deposit] = await db().select().from(deposits).where(eq(deposits.sessionId, s.sessionId));
      blocks.add(deposit!.blockNumber);
      expect(await tokenBalance(chain().url, usd, s.depositAddress)).toBe(0n);
    }
    expect(blocks.size).toBe(1);
  });
});
