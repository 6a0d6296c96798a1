import { eq, sql } from "drizzle-orm";
import { type Address, createWalletClient, erc20Abi, getAddress, http, parseUnits } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { rowsOf } from "@/lib/db/rows";
import { chainCursors, chainTransactions, forwards, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { reconcileCommand, statusCommand } from "@/lib/ops/admin/operations";
import { formatReconciliation, reconcile } from "@/lib/ops/custody/reconcile";
import { reconcileIfDueStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { chainAt, deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const env = (extra: Record<string, string> = {}) =>
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1", ...extra });

let merchant: Merchant;
let usd: Address;

async function paidSession(amount: string, merchantWallet?: Address) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: merchant.tokenId, amount, ...(merchantWallet ? { merchantWallet } : {}) },
  });
  const { depositAddress } = res.body.data as { depositAddress: Address };
  await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, depositAddress, parseUnits(amount, 18)) });
  await chain().client.mine({ blocks: 1 });
  return depositAddress;
}
async function run() {
  const lines: string[] = [];
  const code = await reconcileCommand(db(), ["--network", "bsc"], (line) => lines.push(line));
  return { code, text: lines.join("\n") };
}

beforeAll(async () => {
  env();
  usd = await deployTestToken(chain().url, { symbol: "RCN" });
  merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
  await fundGasTank(chain().url);
});

describe("reconcile: the ledger against the chain", () => {
  it("finds nothing to report when every payment was forwarded, and exits 0", async () => {
    await paidSession("5", MERCHANT_WALLET);
    await paidSession("3"); // forwarded to the domain's withdrawal wallet (no merchantWallet, no payout address)
    await runEngine(db(), chain().url);

    const { code, text } = await run();
    expect(text).toContain("no differences");
    expect(text).toMatch(
      /bsc RCN 0x[0-9a-fA-F]{40}\n {2}ledger: recorded 8, forwarded 8, in flight 0, held 0, below minimum 0\n {2}chain: {2}deposit addresses hold 0 \(the ledger expects 0\)/,
    );
    expect(code).toBe(0);
    expect((await (await health()).json()).reconciliation).toEqual({ lastRunAt: expect.any(String), differences: 0 });
  });

  it("reports a held forward, a balance sent behind the ledger's back, and tokens gone from a withdrawal wallet; exits 1", async () => {
    // Held: the sweep would need more gas than the operator allows (a classic sweep's 21,000
    // intrinsic gas alone nearly fills 30,000; a batch entry would fit, so this one goes classic).
    env({ MAX_SWEEP_GAS: "30000", SWEEP_MODE: "classic" });
    const held = await paidSession("7", MERCHANT_WALLET);
    await runEngine(db(), chain().url);
    const [heldForward] = await db().select().from(forwards).where(eq(forwards.fromAddress, held));
    expect(heldForward).toMatchObject({ status: "held" });
    env();

    // Behind the ledger's back: tokens arrive that the scanner never recorded (its cursor moved past them).
    const swept = await paidSession("2", MERCHANT_WALLET);
    await runEngine(db(), chain().url);
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, swept, parseUnits("1.5", 18)) });
    await chain().client.mine({ blocks: 2 });
    await db()
      .update(chainCursors)
      .set({ lastScannedBlock: await chain().client.getBlockNumber({ cacheTime: 0 }) })
      .where(eq(chainCursors.network, "bsc"));

    // The withdrawal wallet's key spends outside the service: the ledger has no record of it.
    const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
    await chain().client.setBalance({ address: wallet, value: parseUnits("1", 18) });
    const signer = createWalletClient({
      account: keyRingFor(TEST_MNEMONIC).signer("withdrawal", merchant.domainId),
      chain: await chainAt(chain().url),
      transport: http(chain().url),
    });
    await chain().client.waitForTransactionReceipt({
      hash: await signer.writeContract({
        address: usd,
        abi: erc20Abi,
        functionName: "transfer",
        args: [MERCHANT_WALLET, parseUnits("1", 18)],
      }),
    });

    const { code, text } = await run();
    expect(code).toBe(1);
    expect(text, text).toContain("3 difference(s):");
    expect(text).toContain(`HELD bsc ${held} RCN: forward ${heldForward!.id} of 7 RCN is held:`);
    expect(text).toContain("above MAX_SWEEP_GAS (30000)");
    expect(text).toContain(`UNTRACKED bsc ${swept} RCN: holds 1.5 RCN more than the ledger knows of`);
    expect(text).toContain(
      `WALLET-SHORT bsc ${wallet} RCN: withdrawal wallet of domain ${merchant.domainId} holds 2 RCN; forwards brought 3 RCN and withdrawals took 0 RCN, so it should hold at least 3 RCN`,
    );
    expect(text).toContain("ledger: recorded 17, forwarded 10, in flight 0, held 7, below minimum 0");
    expect(text).toContain("deposit addresses hold 8.5 (the ledger expects 7)");
    expect((await (await health()).json()).reconciliation).toMatchObject({ differences: 3 });

    const status: string[] = [];
    expect(await statusCommand(db(), (line) => status.push(line))).toBe(1);
    const screen = status.join("\n");
    expect(screen).toContain("reconciliation found 3 difference(s)");
    expect(screen).toContain("1 held forward(s)");
    expect(screen).toMatch(/bsc +head \d+, cursor \d+, lag \d+/);
  });

  it("does not report a transfer the scanner has not reached yet", async () => {
    const pending = await paidSession("4", MERCHANT_WALLET); // mined, cursor still behind it
    const result = await reconcile(db(), { network: "bsc" });
    expect(result.differences.filter((d) => d.address === pending)).toEqual([]);
  });

  it("runs as a daily job step: once a day, not again on every restart", async () => {
    const first = await reconcileIfDueStep(db(), 24 * 3600_000, new Date(Date.now() + 25 * 3600_000));
    expect(first).toBeGreaterThan(0);
    expect(await reconcileIfDueStep(db())).toBeNull(); // just ran
  });

  it("reports a service wallet's nonce that the ledger saw go to a transaction the service never signed", async () => {
    const wallet = keyRingFor(TEST_MNEMONIC).gasTankAddress();
    const [row] = await db()
      .insert(chainTransactions)
      .values({
        network: "bsc",
        walletRole: "gas_tank",
        walletIndex: 0,
        wallet,
        nonce: 9_999,
        kind: "sweep_gas",
        toAddress: wallet,
        value: 1n,
        gasLimit: 21_000n,
        gasPrice: 1n,
        txHash: `0x${"ab".repeat(32)}`,
        status: "replaced",
      })
      .returning();
    const result = await reconcile(db(), { network: "bsc" });
    const taken = result.differences.filter((d) => d.kind === "nonce-taken");
    expect(taken).toEqual([
      expect.objectContaining({
        network: "bsc",
        address: wallet,
        message: expect.stringContaining("nonce 9999 of this gas tank wallet went to a transaction the service did not sign"),
      }),
    ]);
    // Replaced by a row of ours (a re-priced copy, a cancel) is no difference.
    const [cancel] = await db()
      .insert(chainTransactions)
      .values({
        network: "bsc",
        walletRole: "gas_tank",
        walletIndex: 0,
        wallet,
        nonce: 9_999,
        kind: "cancel",
        toAddress: wallet,
        value: 0n,
        gasLimit: 21_000n,
        gasPrice: 2n,
        txHash: `0x${"cd".repeat(32)}`,
        status: "mined",
        replacesId: row!.id,
      })
      .returning();
    await db().update(chainTransactions).set({ replacedById: cancel!.id }).where(eq(chainTransactions.id, row!.id));
    expect((await reconcile(db(), { network: "bsc" })).differences.filter((d) => d.kind === "nonce-taken")).toEqual([]);
  });

  it("reports a withdrawal recorded failed whose transfer was mined after all (a row from before the ledger)", async () => {
    const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
    const [ledgerRow] = await db()
      .insert(chainTransactions)
      .values({
        network: "bsc",
        walletRole: "withdrawal",
        walletIndex: merchant.domainId,
        wallet,
        nonce: 4_242,
        kind: "withdrawal",
        toAddress: usd,
        value: 0n,
        gasLimit: 60_000n,
        gasPrice: 1n,
        txHash: `0x${"ef".repeat(32)}`,
        status: "mined",
      })
      .returning();
    const id = crypto.randomUUID();
    await db().insert(withdrawals).values({
      id,
      userId: merchant.userId,
      apiKeyId: merchant.apiKeyId,
      domainId: merchant.domainId,
      tokenId: merchant.tokenId,
      network: "bsc",
      fromAddress: wallet,
      toAddress: MERCHANT_WALLET,
      amount: 5n,
      nonce: 4_242,
      txHash: ledgerRow!.txHash,
      chainTxId: ledgerRow!.id,
      gasLimit: 60_000n,
      gasPrice: 1n,
      status: "failed",
      failureReason: "dropped: its nonce was used by another transaction",
    });
    const paid = (await reconcile(db(), { network: "bsc" })).differences.filter((d) => d.kind === "paid-after-failed");
    expect(paid).toEqual([
      expect.objectContaining({
        address: wallet,
        message: expect.stringContaining(`withdrawal ${id} is recorded failed, but its transfer ${ledgerRow!.txHash} was mined`),
      }),
    ]);
    // Failed because its filler took the nonce: nothing left, nothing to report.
    await db().update(chainTransactions).set({ status: "replaced" }).where(eq(chainTransactions.id, ledgerRow!.id));
    expect((await reconcile(db(), { network: "bsc" })).differences.filter((d) => d.kind === "paid-after-failed")).toEqual([]);
  });

  it("answers bad input clearly", async () => {
    await expect(reconcileCommand(db(), ["--network", "mars"], () => {})).rejects.toThrow("network mars is not configured");
    await expect(reconcileCommand(db(), ["--all"], () => {})).rejects.toThrow("usage:");
  });
});

describe("reconcile: the addresses it reads follow what can hold funds", () => {
  /** `count` old sessions of the merchant (completed a month ago, forwarded, never paid again), written in SQL from deposit index `from` on. */
  async function oldSessions(from: number, count: number): Promise<Address[]> {
    const rows = await db().execute(sql`
      insert into payment_sessions (id, user_id, api_key_id, token_id, network, chain_id, deposit_index, deposit_address, deposit_topic,
                                    amount, forward_to, status, expires_at, completed_at, created_at)
      select gen_random_uuid(), ${merchant.userId}, ${merchant.apiKeyId}, ${merchant.tokenId}, 'bsc', 56, ${from} + g,
             '0x' || lpad(to_hex(${from} + g), 40, 'a'), lpad(to_hex(${from} + g), 64, '0'), 1, ${MERCHANT_WALLET}, 'completed',
             now() - interval '30 days', now() - interval '31 days', now() - interval '31 days'
      from generate_series(0, ${count - 1}) g
      returning deposit_address`);
    return rowsOf<{ deposit_address: string }>(rows).map((r) => getAddress(r.deposit_address));
  }

  it("finds an old address holding funds behind the ledger's back through the rolling sample, within the runs it takes to go round", async () => {
    const old = await oldSessions(2_000_000, 40);
    const target = old[25]!;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, target, parseUnits("2.5", 18)) });
    await chain().client.mine({ blocks: 2 });
    await db()
      .update(chainCursors)
      .set({ lastScannedBlock: await chain().client.getBlockNumber({ cacheTime: 0 }) })
      .where(eq(chainCursors.network, "bsc"));
    const [{ total }] = rowsOf<{ total: number }>(await db().execute(sql`select count(*)::int as total from payment_sessions`)) as [
      { total: number },
    ];
    const sampleSize = 10;
    const found: number[] = [];
    for (let run = 1; run <= Math.ceil(total / sampleSize) + 1; run++) {
      const result = await reconcile(db(), { network: "bsc", sampleSize });
      const [coverage] = result.coverage;
      expect(coverage!.sampled).toBeLessThanOrEqual(sampleSize);
      if (result.differences.some((d) => d.kind === "untracked" && d.address === target)) found.push(run);
    }
    // Once per round of the sample: the old address is not read every run, but it is read.
    expect(found).toHaveLength(1);
    const untracked = (await reconcile(db(), { network: "bsc", sampleSize: 1_000_000 })).differences.find((d) => d.address === target);
    expect(untracked?.message).toContain("holds 2.5 RCN more than the ledger knows of");
  });

  it("reads a bounded number of addresses however long the history, and says what it covered", async () => {
    await oldSessions(3_000_000, 5_000);
    const result = await reconcile(db(), { network: "bsc", sampleSize: 100 });
    const [coverage] = result.coverage;
    expect(coverage).toMatchObject({ network: "bsc", sampled: 100 });
    expect(coverage!.addresses).toBeLessThanOrEqual(coverage!.open + coverage!.recent + coverage!.unforwarded + 100);
    expect(coverage!.addresses).toBeLessThan(200); // of more than 5,000 ever made
    expect(coverage!.sampleTo! - coverage!.sampleFrom!).toBeGreaterThanOrEqual(99);
    const text = formatReconciliation(result).join("\n");
    expect(text).toContain(
      `bsc deposit addresses read: ${coverage!.addresses} — ${coverage!.open} of open sessions, ${coverage!.recent} with deposits in the last 7 days, ${coverage!.unforwarded} with unforwarded funds, 100 by the rolling sample (deposit indexes ${coverage!.sampleFrom}–${coverage!.sampleTo})`,
    );
    // The next run goes on where this one stopped.
    const [next] = (await reconcile(db(), { network: "bsc", sampleSize: 100 })).coverage;
    expect(next!.sampleFrom).toBeGreaterThan(coverage!.sampleTo!);
  });
});
