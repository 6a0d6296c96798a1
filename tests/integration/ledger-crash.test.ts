import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { parseEther, parseUnits, type Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureGasBalance } from "@/lib/chain/gas-top-up";
import { keyRingFor } from "@/lib/chain/keys";
import { batchSweepSupport, forgetBatchSupport } from "@/lib/chain/sweep-contracts";
import { recoverFunds } from "@/lib/custody/recover";
import { closeDatabase } from "@/lib/db";
import type { DatabaseHandle } from "@/lib/db/client";
import { chainTransactions, sweepBatches } from "@/lib/db/schema";
import { tendLedger } from "@/lib/ledger/watchdog";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { openFileDatabase } from "../helpers/database";
import { fundGasTank, tokenBalance } from "../helpers/engine";
import { startRawTransactionTrap, type RawTransactionTrap } from "../helpers/raw-transaction-trap";

/**
 * SIGKILL between a ledger row's record and its broadcast, and right after the broadcast, for the
 * kinds the forward and withdrawal crash suites do not drive: a withdrawal wallet's gas top-up,
 * the sweep contracts' deployments, and a recovery transfer. The restart sends the recorded bytes
 * (never new ones) and nothing is sent twice.
 */
const chain = useTestChain({ chainId: 56 });
const dir = join(mkdtempSync(join(tmpdir(), "bscpay-ledger-crash-")), "pglite");
const keys = keyRingFor(TEST_MNEMONIC);
const tank = keys.gasTankAddress();
let trap: RawTransactionTrap;
let handle: DatabaseHandle;
const env = (url: string) => ({ BSC_RPC_URL: url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1", MASTER_MNEMONIC: TEST_MNEMONIC, PGLITE_DIR: dir });
const tankSent = () => chain().client.getTransactionCount({ address: tank, blockTag: "pending" });

beforeAll(async () => {
  trap = await startRawTransactionTrap(chain().url);
  useConfig(env(chain().url));
  handle = await openFileDatabase(dir);
  await fundGasTank(chain().url);
});

afterAll(async () => {
  await closeDatabase();
  await trap?.close();
});

/** Runs `args` in a process that is killed at the `at`-th raw transaction it sends; then the restart. */
async function crashDuring(args: string[], at: number, mode: "before" | "after"): Promise<void> {
  await handle.close();
  const sprung = trap.arm(at, mode);
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/ledger-crash-process.ts", ...args], {
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, NODE_ENV: "test", LOG_LEVEL: "silent", ...env(trap.url) },
    stdio: "ignore",
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await Promise.race([sprung, exited.then(() => Promise.reject(new Error(`${args[0]} ended before its transaction was sent`)))]);
  child.kill("SIGKILL");
  await exited;
  trap.disarm();
  handle = await openFileDatabase(dir); // the restart
}

describe.each(["before", "after"] as const)("a crash %s the broadcast", (mode) => {
  it("of a withdrawal wallet's gas top-up: the restart sends the recorded top-up, once", async () => {
    const wallet = keys.withdrawalAddress(mode === "before" ? 11 : 12);
    const sentBefore = await tankSent();
    await crashDuring(["wallet-gas", wallet, parseEther("0.01").toString()], 1, mode);
    const [recorded] = await handle.db.select().from(chainTransactions).where(eq(chainTransactions.toAddress, wallet));
    expect(recorded).toMatchObject({ kind: "wallet_gas", status: "pending", nonce: sentBefore });
    expect(await tankSent()).toBe(mode === "before" ? sentBefore : sentBefore + 1);

    await tendLedger(handle.db); // sends the recorded bytes again (or finds them mined)
    await tendLedger(handle.db);
    await ensureGasBalance(handle.db, "bsc", wallet, parseEther("0.01")); // what the interrupted request wanted
    expect(await chain().client.getBalance({ address: wallet })).toBe(parseEther("0.01"));
    expect(await tankSent()).toBe(sentBefore + 1);
    expect((await handle.db.select().from(chainTransactions).where(eq(chainTransactions.toAddress, wallet))).map((r) => [r.txHash, r.status])).toEqual([[recorded!.txHash, "mined"]]);
  });
});

describe("a crash while deploying the sweep contracts", () => {
  it("before either deployment is broadcast: the restart sends both recorded ones and deploys nothing more", async () => {
    const sentBefore = await tankSent();
    await crashDuring(["deploy"], 1, "before");
    const deployments = await handle.db.select().from(sweepBatches);
    expect(deployments.map((d) => [d.kind, d.status]).sort()).toEqual([
      ["deploy_delegate", "sent"],
      ["deploy_sweeper", "sent"],
    ]);
    expect(await tankSent()).toBe(sentBefore);

    await tendLedger(handle.db);
    await tendLedger(handle.db);
    forgetBatchSupport(); // a fresh process
    expect((await batchSweepSupport(handle.db, "bsc")).state).toBe("ready");
    expect((await handle.db.select().from(sweepBatches)).map((d) => d.status)).toEqual(["mined", "mined"]);
    expect(await tankSent()).toBe(sentBefore + 2);
  });
});

describe("a crash during recovery", () => {
  it("before its token transfer is broadcast: the next run sends the recorded transfer, never a second one", async () => {
    const stranded = keys.depositAddress(1);
    const rescue = "0x000000000000000000000000000000000000dEaD" as Address;
    const token = await deployTestToken(chain().url, { symbol: "RCV", mintTo: [stranded] });
    const held = await tokenBalance(chain().url, token, stranded);
    // The first raw transaction is the gas tank's top-up of the address; the second, the transfer.
    await crashDuring(["recover", rescue, "2", token], 2, "before");
    const [transfer] = await handle.db.select().from(chainTransactions).where(eq(chainTransactions.kind, "recovery"));
    expect(transfer).toMatchObject({ wallet: stranded, walletRole: "deposit", walletIndex: 1, status: "pending", broadcasts: 0 });
    expect(await tokenBalance(chain().url, token, rescue)).toBe(0n);

    const report = await recoverFunds(handle.db, { network: "bsc", to: rescue, toIndex: 2, extraTokens: [token], print: () => {} });
    expect(await tokenBalance(chain().url, token, rescue)).toBe(held);
    expect(await chain().client.getTransactionCount({ address: stranded })).toBe(1); // the recorded transfer, no second one
    expect((await handle.db.select().from(chainTransactions).where(eq(chainTransactions.kind, "recovery"))).map((r) => [r.txHash, r.status])).toEqual([[transfer!.txHash, "mined"]]);
    expect(report.moved).toEqual([]); // read again after the recorded transfer settled: nothing left
  });

  it("right after its token transfer is broadcast: the next run finds it mined and moves nothing more", async () => {
    const stranded = keys.depositAddress(2);
    const rescue = "0x000000000000000000000000000000000000bEEF" as Address;
    const token = await deployTestToken(chain().url, { symbol: "RCA", mintTo: [stranded] });
    const held = await tokenBalance(chain().url, token, stranded);
    await crashDuring(["recover", rescue, "2", token], 2, "after");
    const [transfer] = await handle.db.select().from(chainTransactions).where(eq(chainTransactions.wallet, stranded));
    expect(transfer).toMatchObject({ kind: "recovery", status: "pending" });

    const report = await recoverFunds(handle.db, { network: "bsc", to: rescue, toIndex: 2, extraTokens: [token], print: () => {} });
    expect(report.moved).toEqual([]);
    expect(await tokenBalance(chain().url, token, rescue)).toBe(held);
    expect(await chain().client.getTransactionCount({ address: stranded })).toBe(1);
    await tendLedger(handle.db); // the service's next ledger round records how it ended
    expect((await handle.db.select().from(chainTransactions).where(eq(chainTransactions.wallet, stranded))).map((r) => r.status)).toEqual(["mined"]);
  });
});
