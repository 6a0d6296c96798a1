/**
 * BNB itself going out: withdrawals, refunds of a payment made in BNB and payout
 * batches of BNB send native value through the one ledger (before: an ERC-20 call on 0xEeee… that
 * always failed). The wallet keeps the BNB its open transactions' gas needs and says so when a
 * request would take it; a recipient that refuses BNB fails only its own payout item, and its
 * amount comes back to the wallet in the same transaction.
 */

import { and, eq } from "drizzle-orm";
import { type Address, createWalletClient, formatEther, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { POST as refund } from "@/app/api/v1/payment/[sessionId]/refund/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { GET as getBatch } from "@/app/api/v1/payouts/[batchId]/route";
import { POST as createPayouts } from "@/app/api/v1/payouts/route";
import { GET as getWithdrawal } from "@/app/api/v1/withdrawal/[withdrawalId]/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { chainTransactions, tokenCatalogue, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { NATIVE_TOKEN } from "@/lib/engine/chain/native";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { chainAt, deployTestToken, payerKey, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
let merchant: Merchant;
let bnbId: number;
let wallet: Address;
let round = 0;
const recipient = (i: number) => `0x${(0xbeef00 + i).toString(16).padStart(40, "0")}` as Address;
const headers = (key?: string) => ({ "x-api-key": merchant.apiKey, ...(key ? { "idempotency-key": key } : {}) });
const balance = (address: Address) => chain().client.getBalance({ address });

async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await chain().client.mine({ blocks: 1 });
    if ((await tendLedgerStep(db())).pending === 0) return;
  }
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  await fundGasTank(chain().url);
  merchant = await setUpMerchant({ contractAddress: await deployTestToken(chain().url, { symbol: "USX" }), network: "bsc" });
  const registered = await call(registerToken, {
    method: "POST",
    headers: merchant.auth,
    body: { contractAddress: NATIVE_TOKEN, network: "bsc" },
  });
  expect(registered.status).toBe(201);
  bnbId = registered.body.data.tokenId;
  wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
});

describe("BNB out of a withdrawal wallet", () => {
  it("withdraws BNB as the transaction's value, once: the recipient gets exactly the amount", async () => {
    await chain().client.setBalance({ address: wallet, value: parseEther("2") });
    const before = await balance(recipient(1));
    const res = await call(send, {
      method: "POST",
      headers: headers(`bnb-w-${++round}`),
      body: { domainId: merchant.domainId, tokenId: bnbId, toAddress: recipient(1), amount: "0.25" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ status: "submitted", token: "BNB", amount: "0.25" });
    const [row] = await db().select().from(chainTransactions).where(eq(chainTransactions.txHash, res.body.data.txHash));
    expect(row).toMatchObject({ kind: "withdrawal", value: parseEther("0.25") });
    await settle();
    const read = await call(getWithdrawal, { headers: headers(), params: { withdrawalId: res.body.data.withdrawalId } });
    expect(read.body.data.status).toBe("completed");
    expect((await balance(recipient(1))) - before).toBe(parseEther("0.25"));
    // The same key and body again: the same withdrawal, nothing sent twice.
    const replay = await call(send, {
      method: "POST",
      headers: headers(`bnb-w-${round}`),
      body: { domainId: merchant.domainId, tokenId: bnbId, toAddress: recipient(1), amount: "0.25" },
    });
    expect(replay.body.data.withdrawalId).toBe(res.body.data.withdrawalId);
    expect((await balance(recipient(1))) - before).toBe(parseEther("0.25"));
  });

  it("keeps the BNB its open transactions need: a withdrawal that would take their gas is refused, saying so, and records nothing", async () => {
    await chain().client.setBalance({ address: wallet, value: parseEther("1") });
    await chain().client.setAutomine(false);
    try {
      const first = await call(send, {
        method: "POST",
        headers: headers(`bnb-w-${++round}`),
        body: { domainId: merchant.domainId, tokenId: bnbId, toAddress: recipient(2), amount: "0.6" },
      });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      const rows = (await db().select().from(withdrawals)).length;
      // 1 − 0.6 leaves 0.4, but the first send's gas is held back from it.
      const second = await call(send, {
        method: "POST",
        headers: headers(`bnb-w-${++round}`),
        body: { domainId: merchant.domainId, tokenId: bnbId, toAddress: recipient(3), amount: "0.4" },
      });
      expect(second.status).toBe(502);
      expect(second.body.error).toMatchObject({ code: "BLOCKCHAIN_ERROR", reason: "wallet-short-of-tokens" });
      expect(second.body.error.message).toMatch(/0\.6 BNB reserved by sends not yet mined and 0\.\d+ BNB kept for gas/);
      expect((await db().select().from(withdrawals)).length).toBe(rows);
    } finally {
      await chain().client.setAutomine(true);
    }
    await settle();
  });

  it("never lets the gas tank's BNB go out as value: what a top-up lent for gas stays for gas", async () => {
    // Any amount may be withdrawn here, however small (the leftover is a fraction of a gas top-up).
    await db().update(tokenCatalogue).set({ minWithdrawalAmount: 1n }).where(eq(tokenCatalogue.contractAddress, NATIVE_TOKEN));
    // Exactly the amount, no BNB for gas: the tank tops the wallet up for this send's gas.
    await chain().client.setBalance({ address: wallet, value: parseEther("0.25") });
    const first = await call(send, {
      method: "POST",
      headers: headers(`bnb-w-${++round}`),
      body: { domainId: merchant.domainId, tokenId: bnbId, toAddress: recipient(5), amount: "0.25" },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    await settle();
    const left = await balance(wallet);
    expect(left).toBeGreaterThan(0n); // the unused part of the top-up (the gas limit's margin)
    const rows = (await db().select().from(withdrawals)).length;
    const take = await call(send, {
      method: "POST",
      headers: headers(`bnb-w-${++round}`),
      body: { domainId: merchant.domainId, tokenId: bnbId, toAddress: recipient(5), amount: formatEther(left) },
    });
    expect(take.status).toBe(502);
    expect(take.body.error).toMatchObject({ reason: "wallet-short-of-tokens" });
    expect(take.body.error.message).toMatch(/kept for gas/);
    expect((await db().select().from(withdrawals)).length).toBe(rows);
  });

  it("refunds a payment made in BNB in BNB, once", async () => {
    await chain().client.setBalance({ address: wallet, value: parseEther("3") });
    const created = await call(create, { method: "POST", headers: headers(), body: { tokenId: bnbId, amount: "0.5", orderId: "BNB-R-1" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const payer = createWalletClient({
      account: privateKeyToAccount(payerKey),
      chain: await chainAt(chain().url),
      transport: http(chain().url),
    });
    const hash = await payer.sendTransaction({ to: created.body.data.depositAddress, value: parseEther("0.5") });
    await chain().client.waitForTransactionReceipt({ hash });
    await runEngine(db(), chain().url);
    const before = await balance(recipient(4));
    const res = await call(refund, {
      method: "POST",
      headers: headers(`bnb-r-${++round}`),
      params: { sessionId: created.body.data.sessionId },
      body: { amount: "0.2", toAddress: recipient(4) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ status: "sending", amount: "0.2" });
    await settle();
    expect((await balance(recipient(4))) - before).toBe(parseEther("0.2"));
    const paid = await db()
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.refundId, res.body.data.refundId), eq(withdrawals.status, "completed")));
    expect(paid).toHaveLength(1);
  });

  it("pays a batch of BNB: each recipient once; one that refuses BNB fails alone and its amount comes back", async () => {
    await chain().client.setBalance({ address: wallet, value: parseEther("5") });
    // A contract without a receive function refuses BNB.
    const refuses = await deployTestToken(chain().url, { symbol: "NOPE" });
    const items = [
      { toAddress: recipient(10), amount: "0.1" },
      { toAddress: refuses, amount: "0.2" },
      { toAddress: recipient(11), amount: "0.3" },
    ];
    const befores = await Promise.all([recipient(10), refuses, recipient(11)].map(balance));
    const res = await call(createPayouts, {
      method: "POST",
      headers: headers(`bnb-p-${++round}`),
      body: { domainId: merchant.domainId, tokenId: bnbId, items },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    let view = res.body.data;
    for (let i = 0; i < 10 && !["completed", "partially_failed", "failed"].includes(view.status); i++) {
      await settle(1);
      view = (await call(getBatch, { headers: headers(), params: { batchId: res.body.data.batchId } })).body.data;
    }
    expect(view.status, JSON.stringify(view.items)).toBe("partially_failed");
    expect(view.items.map((i: { status: string }) => i.status)).toEqual(["completed", "failed", "completed"]);
    const afters = await Promise.all([recipient(10), refuses, recipient(11)].map(balance));
    expect(afters.map((a, i) => a - befores[i]!)).toEqual([parseEther("0.1"), 0n, parseEther("0.3")]);
    // One pay transaction carrying the chunk's total; the refused 0.2 went back to the wallet in it.
    const pays = await db()
      .select()
      .from(chainTransactions)
      .where(and(eq(chainTransactions.wallet, wallet), eq(chainTransactions.kind, "payout")));
    expect(pays.map((p) => p.value)).toEqual([parseEther("0.6")]);
    expect(await db().select().from(chainTransactions).where(eq(chainTransactions.kind, "payout_approve"))).toHaveLength(0);
  });

  it("tops a wallet up with gas only: a BNB send mined but not settled yet is not value the gas tank makes up", async () => {
    // A token of the same wallet to pay out in a batch afterwards.
    const token = await deployTestToken(chain().url, { symbol: "GAS", mintTo: [wallet] });
    const { allowCatalogueToken } = await import("@/lib/domain/tokens/catalogue");
    await allowCatalogueToken(db(), "bsc", token);
    const tokenId = (
      await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
    ).body.data.tokenId;
    await chain().client.setBalance({ address: wallet, value: parseEther("1.01") });
    // Nearly all of it leaves as value; mined at once, settled only by the job (not run here).
    const out = await call(send, {
      method: "POST",
      headers: headers(`bnb-w-${++round}`),
      body: { domainId: merchant.domainId, tokenId: bnbId, toAddress: recipient(20), amount: "1" },
    });
    expect(out.status, JSON.stringify(out.body)).toBe(201);
    const tank = keyRingFor(TEST_MNEMONIC).gasTankAddress();
    const tankBefore = await balance(tank);
    const batch = await call(createPayouts, {
      method: "POST",
      headers: headers(`gas-p-${++round}`),
      body: { domainId: merchant.domainId, tokenId, items: [{ toAddress: recipient(21), amount: "5" }] },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    // The top-up paid the chunk's gas (approve + pay, ~0.0003 BNB at anvil's price), never the BNB that left.
    expect(tankBefore - (await balance(tank))).toBeLessThan(parseEther("0.01"));
    await settle();
  });
});
