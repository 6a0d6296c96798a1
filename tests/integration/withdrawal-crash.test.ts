import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase } from "@/lib/db";
import { chainTransactions, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { openFileDatabase } from "../helpers/database";
import { fundGasTank, tokenBalance } from "../helpers/engine";
import { recorded } from "../helpers/withdrawals";

const chain = useTestChain({ chainId: 56 });
const dir = join(mkdtempSync(join(tmpdir(), "bscpay-wcrash-")), "pglite");
const RECIPIENT = "0x2546BcD3c84621e976D8185a91A922aE77ECEc30" as Address;
const env = () => ({
  BSC_RPC_URL: chain().url,
  NEXTAUTH_SECRET: "integration-test-secret-0123456789",
  CONFIRMATIONS: "1",
  MASTER_MNEMONIC: TEST_MNEMONIC,
  PGLITE_DIR: dir,
});
afterAll(() => closeDatabase());

describe("a crash after recording a withdrawal and before broadcasting it", () => {
  it("broadcasts the same transaction exactly once after the restart", async () => {
    useConfig(env());
    let handle = await openFileDatabase(dir);
    await fundGasTank(chain().url);
    const placeholder = await deployTestToken(chain().url, { symbol: "PLC" });
    const merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
    const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
    await chain().client.setBalance({ address: wallet, value: parseUnits("1", 18) });
    const token = await deployTestToken(chain().url, { symbol: "WCR", mintTo: [wallet] });
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
        "tests/helpers/record-withdrawal-process.ts",
        String(merchant.apiKeyId),
        String(merchant.userId),
        String(merchant.domainId),
        String(tokenId),
        RECIPIENT,
        "7",
      ],
      { env: { PATH: process.env.PATH!, HOME: process.env.HOME!, NODE_ENV: "test", LOG_LEVEL: "silent", ...env() }, stdio: "ignore" },
    );
    const signal = await new Promise((resolve) => child.once("exit", (_code, sig) => resolve(sig)));
    expect(signal).toBe("SIGKILL");

    handle = await openFileDatabase(dir); // the restart
    const [row] = await handle.db.select().from(withdrawals);
    expect(row).toMatchObject({ status: "submitted" });
    const [ledgerRow] = await handle.db
      .select()
      .from(chainTransactions)
      .where(eq(chainTransactions.id, recorded(row).chainTxId));
    expect(ledgerRow).toMatchObject({
      kind: "withdrawal",
      status: "pending",
      broadcasts: 0,
      firstBroadcastAt: null,
      txHash: recorded(row).txHash,
    });
    expect(await chain().client.getTransactionCount({ address: wallet, blockTag: "pending" })).toBe(0);

    for (let i = 0; i < 5 && (await handle.db.select().from(withdrawals))[0]!.status === "submitted"; i++) {
      await tendLedgerStep(handle.db);
      await chain().client.mine({ blocks: 1 });
    }
    const [done] = await handle.db.select().from(withdrawals);
    expect(done!.status).toBe("completed");
    expect(await chain().client.getTransactionCount({ address: wallet })).toBe(1);
    expect(await tokenBalance(chain().url, token, RECIPIENT)).toBe(parseUnits("7", 18));
    await tendLedgerStep(handle.db);
    expect(await chain().client.getTransactionCount({ address: wallet, blockTag: "pending" })).toBe(1);
    expect(
      (
        await handle.db
          .select()
          .from(chainTransactions)
          .where(eq(chainTransactions.id, recorded(row).chainTxId))
      )[0],
    ).toMatchObject({
      status: "mined",
      minedBlock: expect.any(Number),
    });
  });
});
