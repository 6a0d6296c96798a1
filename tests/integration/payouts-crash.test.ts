import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase } from "@/lib/db";
import { chainTransactions, payoutBatches, payoutItems } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { openFileDatabase } from "../helpers/database";
import { fundGasTank, tokenBalance } from "../helpers/engine";

const chain = useTestChain({ chainId: 56 });
const dir = join(mkdtempSync(join(tmpdir(), "bscpay-pcrash-")), "pglite");
const COUNT = 100;
const recipient = (i: number) => `0x${(0x5afe0000 + i).toString(16).padStart(40, "0")}` as Address;
const env = () => ({
  BSC_RPC_URL: chain().url,
  NEXTAUTH_SECRET: "integration-test-secret-0123456789",
  CONFIRMATIONS: "1",
  MASTER_MNEMONIC: TEST_MNEMONIC,
  PGLITE_DIR: dir,
  PAYOUT_CHUNK_SIZE: "40",
});
afterAll(() => closeDatabase());

describe("a crash mid-batch: one chunk sent, the next recorded and not broadcast", () => {
  it("after the restart every recipient is paid exactly once, the recorded chunk re-sent as it was signed", async () => {
    useConfig(env());
    let handle = await openFileDatabase(dir);
    await fundGasTank(chain().url);
    const placeholder = await deployTestToken(chain().url, { symbol: "PLC" });
    const merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
    const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
    await chain().client.setBalance({ address: wallet, value: parseUnits("5", 18) });
    const token = await deployTestToken(chain().url, { symbol: "PCR", mintTo: [wallet] });
    const { POST: registerToken } = await import("@/app/api/user/tokens/route");
    await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(await (await import("@/lib/db")).getDb(), "bsc", token);
    const { call } = await import("../helpers/http");
    const tokenId = (
      await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
    ).body.data.tokenId;
    await handle.close();

    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "tests/helpers/record-payouts-process.ts",
        String(merchant.userId),
        String(merchant.domainId),
        String(tokenId),
        String(COUNT),
      ],
      { env: { PATH: process.env.PATH!, HOME: process.env.HOME!, NODE_ENV: "test", LOG_LEVEL: "silent", ...env() }, stdio: "ignore" },
    );
    const signal = await new Promise((resolve) => child.once("exit", (_code, sig) => resolve(sig)));
    expect(signal).toBe("SIGKILL");

    handle = await openFileDatabase(dir); // the restart
    const [batch] = await handle.db.select().from(payoutBatches);
    expect(batch).toMatchObject({ status: "sending", itemCount: COUNT });
    const items = await handle.db.select().from(payoutItems).where(eq(payoutItems.batchId, batch!.id));
    expect(items.filter((i) => i.status === "sending")).toHaveLength(80);
    expect(items.filter((i) => i.status === "pending")).toHaveLength(20);
    const paysBefore = await handle.db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.kind, "payout"))
      .orderBy(asc(chainTransactions.id));
    expect(paysBefore).toHaveLength(2);
    expect(paysBefore.map((r) => r.broadcasts)).toEqual([1, 0]);

    for (let i = 0; i < 10; i++) {
      await tendLedgerStep(handle.db);
      const [now] = await handle.db.select().from(payoutBatches);
      if (now!.status === "completed") break;
      await chain().client.mine({ blocks: 1 });
    }
    const [done] = await handle.db.select().from(payoutBatches);
    expect(done!.status).toBe("completed");
    for (let i = 0; i < COUNT; i++) expect(await tokenBalance(chain().url, token, recipient(i))).toBe(parseUnits(String(i + 1), 18));
    const pays = await handle.db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.kind, "payout"))
      .orderBy(asc(chainTransactions.id));
    // Three chunks, three pay transactions: the crashed one was sent as recorded (same hash), never signed again.
    expect(pays).toHaveLength(3);
    expect(pays.slice(0, 2).map((r) => r.txHash)).toEqual(paysBefore.map((r) => r.txHash));
    expect(pays.every((r) => r.status === "mined")).toBe(true);
    // Every nonce the wallet used is one of its ledger rows.
    const rows = await handle.db.select().from(chainTransactions).where(eq(chainTransactions.wallet, wallet));
    expect(await chain().client.getTransactionCount({ address: wallet })).toBe(rows.length);
    await handle.close();
  });
});
