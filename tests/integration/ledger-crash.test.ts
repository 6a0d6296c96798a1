import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { type Address, parseEther, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { closeDatabase } from "@/lib/db";
import type { DatabaseHandle } from "@/lib/db/client";
import { chainTransactions, forwards, sweepBatches, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { batchSweepSupport, forgetBatchSupport } from "@/lib/engine/forwarding/batched/batch-support";
import { ensureGasBalance } from "@/lib/engine/ledger/gas-top-up";
import { tendLedger } from "@/lib/engine/ledger/watchdog";
import { recoverFunds } from "@/lib/ops/custody/recover";
import { scanNetworkStep, tendLedgerStep } from "@/lib/ops/jobs/steps";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, type TestChain, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { openFileDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { type RawTransactionTrap, startRawTransactionTrap } from "../helpers/raw-transaction-trap";

/**
 * SIGKILL between a ledger row's record and its broadcast, and right after the broadcast, for
 * every kind of transaction the service signs: a classic sweep's gas top-up and its transfer, a
 * withdrawal, a withdrawal wallet's gas top-up, the sweep contracts' deployments and a recovery
 * transfer (batches have their own suite, engine-crash-batched). The restart sends the recorded
 * bytes — never new ones — and nothing is sent twice.
 */
const keys = keyRingFor(TEST_MNEMONIC);
const tank = keys.gasTankAddress();
const MERCHANT_WALLET = "0x90F79bf6EB2c4f870365E785982E1f101E93b906" as Address;

/** One chain, its trap and the embedded database a killed process and its restart share. */
function useRig(chain: () => TestChain) {
  const rig = {
    chain,
    dir: join(mkdtempSync(join(tmpdir(), "bscpay-ledger-crash-")), "pglite"),
    trap: null as RawTransactionTrap | null,
    handle: null as DatabaseHandle | null,
  };
  const env = (url: string, extra: Record<string, string> = {}) => ({
    BSC_RPC_URL: url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    CONFIRMATIONS: "1",
    MASTER_MNEMONIC: TEST_MNEMONIC,
    PGLITE_DIR: rig.dir,
    SWEEP_MODE: "batched",
    ...extra,
  });
  const db = () => rig.handle!.db; // set by open(), before any test uses it
  return {
    db,
    /** This rig's chain and database become the process's. */
    async open(extra: Record<string, string> = {}) {
      await closeDatabase();
      rig.trap ??= await startRawTransactionTrap(chain().url);
      useConfig(env(chain().url, extra));
      rig.handle = await openFileDatabase(rig.dir);
    },
    async close() {
      await closeDatabase();
      await rig.trap?.close();
    },
    sent: (address: Address) => chain().client.getTransactionCount({ address, blockTag: "pending" }),
    /** Runs the crash process with `args`, kills it at its `at`-th raw transaction, then the restart. */
    async crashDuring(args: string[], at: number, mode: "before" | "after", extra: Record<string, string> = {}) {
      await rig.handle!.close();
      const sprung = rig.trap!.arm(at, mode);
      const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/ledger-crash-process.ts", ...args], {
        env: { PATH: process.env.PATH!, HOME: process.env.HOME!, NODE_ENV: "test", LOG_LEVEL: "silent", ...env(rig.trap!.url, extra) },
        stdio: "ignore",
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await Promise.race([sprung, exited.then(() => Promise.reject(new Error(`${args[0]} ended before its transaction was sent`)))]);
      child.kill("SIGKILL");
      await exited;
      rig.trap!.disarm();
      useConfig(env(chain().url, extra));
      rig.handle = await openFileDatabase(rig.dir); // the restart
    },
  };
}

const chain = useTestChain({ chainId: 56 });
const rig = useRig(chain);
beforeAll(async () => {
  await rig.open();
  await fundGasTank(chain().url);
});
afterAll(() => rig.close());

describe.each(["before", "after"] as const)("a crash %s the broadcast", (mode) => {
  it("of a withdrawal wallet's gas top-up: the restart sends the recorded top-up, once", async () => {
    await rig.open();
    const wallet = keys.withdrawalAddress(mode === "before" ? 11 : 12);
    const sentBefore = await rig.sent(tank);
    await rig.crashDuring(["wallet-gas", wallet, parseEther("0.01").toString()], 1, mode);
    const [recorded] = await rig.db().select().from(chainTransactions).where(eq(chainTransactions.toAddress, wallet));
    expect(recorded).toMatchObject({ kind: "wallet_gas", status: "pending", nonce: sentBefore });
    expect(await rig.sent(tank)).toBe(mode === "before" ? sentBefore : sentBefore + 1);

    await tendLedger(rig.db()); // sends the recorded bytes again (or finds them mined)
    await tendLedger(rig.db());
    await ensureGasBalance(rig.db(), "bsc", wallet, parseEther("0.01")); // what the interrupted request wanted
    expect(await chain().client.getBalance({ address: wallet })).toBe(parseEther("0.01"));
    expect(await rig.sent(tank)).toBe(sentBefore + 1);
    // The ledger marks the row mined on a tend after its receipt exists (a loaded machine may get
    // there after the two tends above): one row, the recorded bytes, never a second transaction.
    await expect
      .poll(
        async () => {
          await tendLedger(rig.db());
          const rows = await rig.db().select().from(chainTransactions).where(eq(chainTransactions.toAddress, wallet));
          return rows.map((r) => [r.txHash, r.status]);
        },
        { timeout: 15_000, interval: 250 },
      )
      .toEqual([[recorded!.txHash, "mined"]]);
    expect(await rig.sent(tank)).toBe(sentBefore + 1);
  });
});

// Before the suites below leave catalogue tokens in service wallets, which recovery would move too.
describe("a crash during recovery", () => {
  it.each([
    ["before its token transfer is broadcast: the next run sends the recorded transfer, never a second one", 500, "before"],
    ["right after its token transfer is broadcast: the next run finds it mined and moves nothing more", 501, "after"],
  ] as const)("%s", async (_name, index, mode) => {
    await rig.open();
    const stranded = keys.depositAddress(index);
    const rescue = "0x000000000000000000000000000000000000dEaD" as Address;
    const token = await deployTestToken(chain().url, { symbol: `R${index}`, mintTo: [stranded] });
    const held = await tokenBalance(chain().url, token, stranded);
    // The first raw transaction is the gas tank's top-up of the address; the second, the transfer.
    await rig.crashDuring(["recover", rescue, String(index), token], 2, mode);
    const [transfer] = await rig.db().select().from(chainTransactions).where(eq(chainTransactions.wallet, stranded));
    expect(transfer).toMatchObject({ kind: "recovery", walletRole: "deposit", walletIndex: index, status: "pending", broadcasts: 0 });

    const report = await recoverFunds(rig.db(), {
      network: "bsc",
      to: rescue,
      fromIndex: index,
      toIndex: index,
      extraTokens: [token],
      print: () => {},
    });
    expect(report.moved).toEqual([]); // read after the recorded transfer settled: nothing left to move
    expect(await tokenBalance(chain().url, token, rescue)).toBe(held);
    expect(await rig.sent(stranded)).toBe(1); // the recorded transfer, no second one
    await tendLedger(rig.db()); // the service's next ledger round records how it ended
    expect(
      (await rig.db().select().from(chainTransactions).where(eq(chainTransactions.wallet, stranded))).map((r) => [r.txHash, r.status]),
    ).toEqual([[transfer!.txHash, "mined"]]);
  });
});

describe("a crash during a classic sweep", () => {
  const CLASSIC = { SWEEP_MODE: "classic" };
  let token: Address;
  let apiKey: string;
  let tokenId: number;
  beforeAll(async () => {
    await rig.open(CLASSIC);
    token = await deployTestToken(chain().url, { symbol: "CLS" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    apiKey = merchant.apiKey;
    tokenId = merchant.tokenId;
  });

  it.each([
    ["before its gas top-up is broadcast", 1, "before"],
    ["before its token transfer is broadcast", 2, "before"],
    ["right after its token transfer is broadcast", 2, "after"],
  ] as const)("%s: the restart sends the recorded transactions, each once", async (_name, at, mode) => {
    await rig.open(CLASSIC);
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": apiKey },
      body: { tokenId, amount: "5", merchantWallet: MERCHANT_WALLET },
    });
    const deposit = created.body.data.depositAddress as Address;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, deposit, parseUnits("5", 18)) });
    await chain().client.mine({ blocks: 1 });
    for (let i = 0; i < 5 && (await scanNetworkStep(rig.db(), "bsc")).behind > 0; i++);
    const merchantBefore = await tokenBalance(chain().url, token, MERCHANT_WALLET);
    const tankBefore = await rig.sent(tank);

    await rig.crashDuring(["forwards"], at, mode, CLASSIC);
    const [forward] = await rig.db().select().from(forwards).where(eq(forwards.fromAddress, deposit));
    expect(forward!.status).toBe(at === 1 ? "gas_sent" : "sweep_sent");
    const recorded = await rig
      .db()
      .select()
      .from(chainTransactions)
      .where(at === 1 ? eq(chainTransactions.toAddress, deposit) : eq(chainTransactions.wallet, deposit));
    await rig.db().update(forwards).set({ lockedUntil: null }); // the killed worker's lease; what is under test is the restart
    await runEngine(rig.db(), chain().url);

    const [done] = await rig.db().select().from(forwards).where(eq(forwards.id, forward!.id));
    expect(done!.status).toBe("completed");
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(merchantBefore + parseUnits("5", 18));
    expect(await rig.sent(tank)).toBe(tankBefore + 1); // one top-up
    expect(await rig.sent(deposit)).toBe(1); // one transfer
    const ledger = await rig
      .db()
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.id, at === 1 ? done!.gasTxId! : done!.sweepTxId!));
    expect(ledger.map((r) => [r.txHash, r.status])).toEqual([[recorded.at(-1)!.txHash, "mined"]]); // the very bytes recorded before the crash
  });
});

describe("a crash right after a withdrawal is broadcast", () => {
  it("leaves it submitted; the restart finds it mined and completes it, sent once", async () => {
    await rig.open();
    const placeholder = await deployTestToken(chain().url, { symbol: "WPL" });
    const merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc", domain: "https://crash.example.com" });
    const wallet = keys.withdrawalAddress(merchant.domainId);
    await chain().client.setBalance({ address: wallet, value: parseEther("1") }); // no top-up: the withdrawal is the first raw transaction
    const token = await deployTestToken(chain().url, { symbol: "WCA", mintTo: [wallet] });
    const { POST: registerToken } = await import("@/app/api/user/tokens/route");
    await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(rig.db(), "bsc", token);
    const tokenId = (
      await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
    ).body.data.tokenId;
    const recipient = "0x00000000000000000000000000000000000c0ffe" as Address;

    await rig.crashDuring(
      ["withdrawal", String(merchant.apiKeyId), String(merchant.userId), String(merchant.domainId), String(tokenId), recipient, "7"],
      1,
      "after",
    );
    const [withdrawal] = await rig.db().select().from(withdrawals).where(eq(withdrawals.fromAddress, wallet));
    expect(withdrawal).toMatchObject({ status: "submitted" });
    for (
      let i = 0;
      i < 5 && (await rig.db().select().from(withdrawals).where(eq(withdrawals.id, withdrawal!.id)))[0]!.status === "submitted";
      i++
    ) {
      await tendLedgerStep(rig.db());
      await chain().client.mine({ blocks: 1 });
    }
    expect((await rig.db().select().from(withdrawals).where(eq(withdrawals.id, withdrawal!.id)))[0]).toMatchObject({
      status: "completed",
      txHash: withdrawal!.txHash,
    });
    expect(await rig.sent(wallet)).toBe(1);
    expect(await tokenBalance(chain().url, token, recipient)).toBe(parseUnits("7", 18));
  });
});

describe("a crash while deploying the sweep contracts", () => {
  it("before either deployment is broadcast: the restart sends both recorded ones and deploys nothing more", async () => {
    await rig.open();
    forgetBatchSupport();
    const sentBefore = await rig.sent(tank);
    await rig.crashDuring(["deploy"], 1, "before");
    const deployments = (await rig.db().select().from(sweepBatches)).filter((d) => d.kind !== "sweep");
    expect(deployments.map((d) => [d.kind, d.status]).sort()).toEqual([
      ["deploy_delegate", "sent"],
      ["deploy_sweeper", "sent"],
    ]);
    expect(await rig.sent(tank)).toBe(sentBefore);

    await tendLedger(rig.db());
    await tendLedger(rig.db());
    forgetBatchSupport(); // a fresh process
    expect((await batchSweepSupport(rig.db(), "bsc")).state).toBe("ready");
    expect((await rig.db().select().from(sweepBatches)).filter((d) => d.kind !== "sweep").map((d) => d.status)).toEqual(["mined", "mined"]);
    expect(await rig.sent(tank)).toBe(sentBefore + 2);
  });
});

describe("a crash right after the first deployment is broadcast", () => {
  const fresh = useTestChain({ chainId: 56 }); // no sweep contracts yet
  const other = useRig(fresh);
  afterAll(() => other.close());

  it("sends the second recorded deployment on restart, and nothing more", async () => {
    await other.open();
    await fundGasTank(fresh().url);
    forgetBatchSupport();
    const sentBefore = await other.sent(tank);
    await other.crashDuring(["deploy"], 1, "after");
    expect(await other.sent(tank)).toBe(sentBefore + 1);
    await tendLedger(other.db());
    await tendLedger(other.db());
    forgetBatchSupport();
    expect((await batchSweepSupport(other.db(), "bsc")).state).toBe("ready");
    expect((await other.db().select().from(sweepBatches)).map((d) => d.status)).toEqual(["mined", "mined"]);
    expect(await other.sent(tank)).toBe(sentBefore + 2);
  });
});
