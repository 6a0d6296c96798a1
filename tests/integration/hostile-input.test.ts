import { eq, inArray } from "drizzle-orm";
import { type Address, createWalletClient, erc20Abi, http, parseEther, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { PATCH as updateDomain } from "@/app/api/user/domains/[id]/route";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { POST as withdraw } from "@/app/api/v1/withdrawal/send/route";
import { deposits, forwards, paymentSessions, quarantinedLogs, sweepBatches, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { forwardsCommand } from "@/lib/ops/admin/forwards";
import { quarantineCommand } from "@/lib/ops/admin/quarantine";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { chainAt, deployTestToken, useTestChain } from "../helpers/chain";
import { SWEEP_MODE, TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { deployHostileToken, type HostileToken } from "../helpers/hostile";
import { call } from "../helpers/http";

/**
 * The attacker's view of the money paths: tokens of the attacker's own making (allowed by a
 * careless operator, or by OPEN_TOKEN_REGISTRATION), logs crafted to break decoders, dust sent
 * to public deposit addresses, and payout targets pointing back into the gateway.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const CAP = 150_000n;

let merchant: Merchant;
let usd: Address;
let tank: Address;

const apiKey = () => ({ "x-api-key": merchant.apiKey });
async function newSession(tokenId: number, amount: string, extra: Record<string, unknown> = {}) {
  const res = await call(create, {
    method: "POST",
    headers: apiKey(),
    body: { tokenId, amount, merchantWallet: MERCHANT_WALLET, ...extra },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data as { sessionId: string; depositAddress: Address };
}
const statusOf = async (sessionId: string) => (await call(status, { headers: apiKey(), params: { sessionId } })).body.data;
const settle = async () => {
  await chain().client.mine({ blocks: 1 });
  await runEngine(db(), chain().url);
};
const tankBalance = () => chain().client.getBalance({ address: tank });
async function registerHostile(token: HostileToken): Promise<number> {
  await tokensCommand(db(), ["allow", "bsc", token.address]);
  const res = await call(registerToken, {
    method: "POST",
    headers: merchant.auth,
    body: { contractAddress: token.address, network: "bsc" },
  });
  return res.body.data.tokenId;
}
async function forwardsAt(address: Address) {
  return db().select().from(forwards).where(eq(forwards.fromAddress, address));
}

/** The merchant with USDT (forwarded from 1 USDT up) and a funded gas tank. */
beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  usd = await deployTestToken(chain().url, { symbol: "USDT" });
  merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
  // Sessions may go below the minimum forward (the operator's --min-payment), so their completing sweep is dust.
  await tokensCommand(db(), ["allow", "bsc", usd, "--min-forward", "1", "--min-payment", "0.1"]);
  tank = await fundGasTank(chain().url);
});

describe("hostile input", () => {
  it("(a) holds the sweep of a token whose transfer burns all gas, spending nothing; an honest payment still completes and forwards", async () => {
    const burner = await deployHostileToken(chain().url, "BURN");
    const burnTokenId = await registerHostile(burner);
    await burner.call("setBurnGas", [true]);
    const trap = await newSession(burnTokenId, "10");
    await burner.call("mint", [trap.depositAddress, parseUnits("10", 18)]);
    const honest = await newSession(merchant.tokenId, "25");
    await payTo(chain().url, usd, honest.depositAddress, parseUnits("25", 18));
    const [tankBefore, merchantBefore] = [await tankBalance(), await tokenBalance(chain().url, usd, MERCHANT_WALLET)];

    await settle();
    expect((await statusOf(trap.sessionId)).status).toBe("completed"); // the payment counts; its sweep is what is refused
    const [held] = await forwardsAt(trap.depositAddress);
    expect(held).toMatchObject({ status: "held", gasTxHash: null, sweepTxHash: null });
    expect(held!.heldReason).toMatch(/the sweep needs \d+ gas, above MAX_SWEEP_GAS \(150000\); nothing was spent/);

    expect(await statusOf(honest.sessionId)).toMatchObject({ status: "completed", receivedAmount: "25" });
    expect(await tokenBalance(chain().url, usd, MERCHANT_WALLET)).toBe(merchantBefore + parseUnits("25", 18));
    const [done] = await forwardsAt(honest.depositAddress);
    const price = done!.gasPrice!;
    if (SWEEP_MODE === "classic") {
      // The only BNB the tank spent is the honest sweep's top-up (and its fee): nothing for the trap.
      expect(await tankBalance()).toBe(tankBefore - done!.gasAmount! - 21_000n * price);
      expect(tankBefore - (await tankBalance())).toBeLessThanOrEqual((CAP + 21_000n) * price);
    } else {
      // The batch simulation left the trap out before anything was signed: the tank paid for the
      // sweep contracts' one-time deployment and a batch of the honest sweep alone.
      const sent = await db().select().from(sweepBatches);
      expect(sent.filter((b) => b.kind === "sweep").map((b) => b.size)).toEqual([1]);
      expect(held!.lastError ?? held!.heldReason).toBeTruthy();
      expect(await tankBalance()).toBe(tankBefore - sent.reduce((sum, b) => sum + b.gasUsed! * b.gasPrice, 0n));
    }

    const lines = await forwardsCommand(db(), ["held"]);
    expect(lines.join("\n")).toContain(`forward ${held!.id} bsc held ${trap.depositAddress}`);
    const body = await (await health()).json();
    expect(body.chains.bsc.heldForwards).toBe(1);
  });

  it("(a) refuses a withdrawal whose gas would exceed MAX_WITHDRAWAL_GAS, recording and sending nothing", async () => {
    const burner = await deployHostileToken(chain().url, "BRN2");
    const tokenId = await registerHostile(burner);
    const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
    await burner.call("mint", [wallet, parseUnits("100", 18)]);
    await burner.call("setBurnGas", [true]);
    await chain().client.setBalance({ address: wallet, value: parseEther("1") });
    const [txs, tankBefore] = [await chain().client.getTransactionCount({ address: wallet }), await tankBalance()];
    const res = await call(withdraw, {
      method: "POST",
      headers: apiKey(),
      body: { domainId: merchant.domainId, tokenId, toAddress: MERCHANT_WALLET, amount: "5" },
    });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("BLOCKCHAIN_ERROR");
    expect(res.body.error.message).toMatch(/needs \d+ gas, above this gateway's limit of 150000 \(MAX_WITHDRAWAL_GAS\)/);
    expect(await db().select().from(withdrawals)).toHaveLength(0);
    expect(await chain().client.getTransactionCount({ address: wallet })).toBe(txs);
    expect(await tankBalance()).toBe(tankBefore);
  });

  it("retries a sweep that reverts on chain once with a fresh estimate, then holds it; the spend stays bounded", async () => {
    // The file's first batch deploys the sweep contracts (test (a)'s, when the file runs whole): an honest
    // sweep goes first, so the spend measured below is the hostile token's alone.
    const warmUp = await newSession(merchant.tokenId, "1");
    await payTo(chain().url, usd, warmUp.depositAddress, parseUnits("1", 18));
    await settle();
    const sly = await deployHostileToken(chain().url, "SLY");
    const tokenId = await registerHostile(sly);
    await sly.call("setRevertWhenPaid", [true]); // simulation passes, the mined sweep reverts
    const session = await newSession(tokenId, "3");
    await sly.call("mint", [session.depositAddress, parseUnits("3", 18)]);
    const tankBefore = await tankBalance();
    await settle();
    const [held] = await forwardsAt(session.depositAddress);
    expect(held).toMatchObject({ status: "held", sweepReverts: 2 });
    expect(held!.heldReason).toMatch(/reverted on chain \(2 times\)/);
    expect(await tokenBalance(chain().url, sly.address, session.depositAddress)).toBe(parseUnits("3", 18));
    const price = await chain().client.getGasPrice();
    // Batched: the mined batch's entry failed first (bounded by its MAX_SWEEP_GAS allowance), then the
    // classic path tops up the now delegated address (at most 40,000 gas a top-up) and reverts twice.
    const bound = SWEEP_MODE === "classic" ? 2n * (CAP + 21_000n) : 3n * (CAP + 40_000n);
    expect(tankBefore - (await tankBalance())).toBeLessThanOrEqual(bound * price);

    // The operator fixes the cause (here: the token stops refusing) and releases it.
    await sly.call("setRevertWhenPaid", [false]);
    expect(await forwardsCommand(db(), ["retry", String(held!.id)])).toEqual([expect.stringContaining(`released: forward ${held!.id}`)]);
    await settle();
    expect((await forwardsAt(session.depositAddress))[0]).toMatchObject({ status: "completed" });
    expect(await tokenBalance(chain().url, sly.address, MERCHANT_WALLET)).toBe(parseUnits("3", 18));
    await expect(forwardsCommand(db(), ["retry", String(held!.id)])).rejects.toThrow(/is not held/);
    await expect(forwardsCommand(db(), ["retry", "abc"])).rejects.toThrow(/usage/);
  });

  it("(b) quarantines Transfer-topic logs that are not ERC-20 Transfers, and payments keep completing", async () => {
    const emitter = await deployHostileToken(chain().url, "LOGS");
    await tokensCommand(db(), ["allow", "bsc", emitter.address]);
    const victim = await newSession(merchant.tokenId, "7");
    await emitter.call("emitMalformedTransfer", [victim.depositAddress, 2n ** 255n, 12345n]);
    await emitter.call("emitFourTopicTransfer", [victim.depositAddress, 77n]);
    const honest = await newSession(merchant.tokenId, "4");
    await payTo(chain().url, usd, honest.depositAddress, parseUnits("4", 18));
    await payTo(chain().url, usd, victim.depositAddress, parseUnits("7", 18));
    await settle();

    expect(await statusOf(honest.sessionId)).toMatchObject({ status: "completed", receivedAmount: "4" });
    expect(await statusOf(victim.sessionId)).toMatchObject({ status: "completed", receivedAmount: "7" });
    const quarantined = await db().select().from(quarantinedLogs).where(eq(quarantinedLogs.contractAddress, emitter.address));
    expect(quarantined.map((q) => q.reason).sort()).toEqual([
      "malformed Transfer log: 4 topics, an ERC-20 Transfer has 3",
      "malformed Transfer log: 64 bytes of data, an ERC-20 Transfer has 32",
    ]);
    expect(quarantined[0]!.data.length).toBeGreaterThan(2);
    expect((await db().select().from(deposits).where(eq(deposits.sessionId, victim.sessionId))).map((d) => d.tokenContract)).toEqual([usd]);
    expect((await quarantineCommand(db(), [])).join("\n")).toContain("64 bytes of data");
    const body = await (await health()).json();
    expect(body.chains.bsc.quarantinedLogs).toBe(2);
  });

  it("never overflows a sum: a token lying with 2^256 - 1 transfers is recorded, its sweep held as balance short", async () => {
    const liar = await deployHostileToken(chain().url, "LIAR");
    const tokenId = await registerHostile(liar);
    const session = await newSession(tokenId, "1");
    for (let i = 0; i < 10; i++) await liar.call("fakeTransfer", [MERCHANT_WALLET, session.depositAddress, 2n ** 256n - 1n]);
    await settle();
    const received = (await db().select().from(paymentSessions).where(eq(paymentSessions.id, session.sessionId)))[0]!.receivedAmount;
    expect(received).toBe(10n * (2n ** 256n - 1n));
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", overpaid: true });
    const [held] = await forwardsAt(session.depositAddress);
    expect(held).toMatchObject({ status: "held" });
    expect(held!.heldReason).toContain("balance short: the address holds 0 base units");
  });

  it("(c) spends no gas and moves no status for 50 zero-value and 50 below-minimum transfers", async () => {
    const sessions = await Promise.all(Array.from({ length: 50 }, () => newSession(merchant.tokenId, "10")));
    const attacker = privateKeyToAccount(generatePrivateKey());
    await chain().client.setBalance({ address: attacker.address, value: parseEther("10") });
    const wallet = createWalletClient({ account: attacker, chain: await chainAt(chain().url), transport: http(chain().url) });
    await chain().client.setAutomine(false);
    try {
      let nonce = 0;
      for (const s of sessions) {
        // An attacker holding nothing can make any standard token emit Transfer(attacker, you, 0).
        await wallet.writeContract({
          address: usd,
          abi: erc20Abi,
          functionName: "transfer",
          args: [s.depositAddress, 0n],
          nonce: nonce++,
          gas: 60_000n,
        });
      }
      for (const s of sessions) await payTo(chain().url, usd, s.depositAddress, parseUnits("0.001", 18)); // below the 1 USDT minimum
      await chain().client.mine({ blocks: 1 });
    } finally {
      await chain().client.setAutomine(true);
    }
    const tankBefore = await tankBalance();
    await settle();

    expect(await tankBalance()).toBe(tankBefore);
    const ids = sessions.map((s) => s.sessionId);
    const recorded = await db().select().from(deposits).where(inArray(deposits.sessionId, ids));
    expect(recorded).toHaveLength(50); // the zero-value ones are not even recorded
    expect(recorded.every((d) => d.amount === parseUnits("0.001", 18) && d.forwardId === null)).toBe(true);
    expect(await db().select().from(forwards).where(inArray(forwards.sessionId, ids))).toHaveLength(0);
    for (const s of sessions.slice(0, 5))
      expect(await statusOf(s.sessionId)).toMatchObject({ status: "pending", receivedAmount: "0.001", txHash: expect.any(String) });
    const rows = await db().select({ status: paymentSessions.status }).from(paymentSessions).where(inArray(paymentSessions.id, ids));
    expect(rows.every((r) => r.status === "pending")).toBe(true);

    // Once the address's unswept balance reaches the minimum, one sweep takes all of it.
    const [first] = sessions;
    await payTo(chain().url, usd, first!.depositAddress, parseUnits("0.999", 18));
    await settle();
    const sweeps = await forwardsAt(first!.depositAddress);
    expect(sweeps).toHaveLength(1);
    expect(sweeps[0]).toMatchObject({ status: "completed", amount: parseUnits("1", 18) });
    expect((await db().select().from(deposits).where(eq(deposits.sessionId, first!.sessionId))).map((d) => d.forwardId)).toEqual([
      sweeps[0]!.id,
      sweeps[0]!.id,
    ]);
    expect(await tokenBalance(chain().url, usd, first!.depositAddress)).toBe(0n);
  });

  it("sweeps below-minimum payments once they complete their session, in one sweep", async () => {
    const session = await newSession(merchant.tokenId, "0.5");
    await payTo(chain().url, usd, session.depositAddress, parseUnits("0.2", 18));
    await settle();
    expect(await forwardsAt(session.depositAddress)).toHaveLength(0);
    await payTo(chain().url, usd, session.depositAddress, parseUnits("0.3", 18));
    await settle();
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "0.5" });
    const sweeps = await forwardsAt(session.depositAddress);
    expect(sweeps.map((f) => [f.status, f.amount])).toEqual([["completed", parseUnits("0.5", 18)]]);

    // Dust sent afterwards to the completed session's public address waits: it is below the minimum.
    const tankBefore = await tankBalance();
    await payTo(chain().url, usd, session.depositAddress, parseUnits("0.01", 18));
    await settle();
    expect(await forwardsAt(session.depositAddress)).toHaveLength(1);
    expect(await tankBalance()).toBe(tankBefore);
  });

  it("(d) refuses payout targets that are addresses of the gateway itself, creating nothing", async () => {
    const other = await newSession(merchant.tokenId, "1");
    const countSessions = async () => (await db().select({ id: paymentSessions.id }).from(paymentSessions)).length;
    const before = await countSessions();
    for (const target of [other.depositAddress, tank, merchant.withdrawalAddress]) {
      const res = await call(create, {
        method: "POST",
        headers: apiKey(),
        body: { tokenId: merchant.tokenId, amount: "1", merchantWallet: target.toLowerCase() },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR" });
      expect(res.body.error.message).toContain("is an address of this gateway");
    }
    expect(await countSessions()).toBe(before);

    const payout = await call(updateDomain, {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: String(merchant.domainId) },
      body: { payoutAddress: other.depositAddress },
    });
    expect(payout.status).toBe(400);
    expect(payout.body.error.message).toContain("payoutAddress");
    const withdrawal = await call(withdraw, {
      method: "POST",
      headers: apiKey(),
      body: { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: other.depositAddress, amount: "1" },
    });
    expect(withdrawal.status).toBe(400);
    expect(withdrawal.body.error.message).toContain("toAddress");
    expect(await db().select().from(withdrawals)).toHaveLength(0);
  });

  it("(e) refuses an uncatalogued token with 400, then takes it once the operator allows it", async () => {
    const stranger = await deployTestToken(chain().url, { symbol: "STR" });
    const refused = await call(registerToken, {
      method: "POST",
      headers: merchant.auth,
      body: { contractAddress: stranger, network: "bsc" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("does not accept the token");
    await tokensCommand(db(), ["allow", "bsc", stranger]);
    const accepted = await call(registerToken, {
      method: "POST",
      headers: merchant.auth,
      body: { contractAddress: stranger, network: "bsc" },
    });
    expect(accepted.status).toBe(201);

    // A token the operator disallows later stops taking new sessions and is no longer scanned.
    await tokensCommand(db(), ["disallow", "bsc", stranger]);
    const res = await call(create, { method: "POST", headers: apiKey(), body: { tokenId: accepted.body.data.tokenId, amount: "1" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("no longer accepts STR");
  });
});
