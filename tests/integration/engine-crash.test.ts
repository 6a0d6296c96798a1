import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, parseUnits } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { closeDatabase } from "@/lib/db";
import { forwards } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { scanNetworkStep } from "@/lib/ops/jobs/steps";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { openFileDatabase } from "../helpers/database";
import { fundGasTank, killForwarderAfterItSends, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";

const chain = useTestChain({ chainId: 56 });
const dir = join(mkdtempSync(join(tmpdir(), "bscpay-crash-")), "pglite");
const MERCHANT_WALLET = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f" as Address;
const env = () => ({
  BSC_RPC_URL: chain().url,
  NEXTAUTH_SECRET: "integration-test-secret-0123456789",
  CONFIRMATIONS: "1",
  MASTER_MNEMONIC: TEST_MNEMONIC,
  PGLITE_DIR: dir,
  // The classic path's own crash window (between the top-up and the sweep); batches have theirs below.
  SWEEP_MODE: "classic",
});
afterAll(() => closeDatabase());

describe("a crash between the gas top-up and the sweep", () => {
  it("forwards exactly once after the worker is killed and the engine restarts", async () => {
    useConfig(env());
    let handle = await openFileDatabase(dir);
    const token = await deployTestToken(chain().url, { symbol: "CRS" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    const tank = await fundGasTank(chain().url);
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "9", merchantWallet: MERCHANT_WALLET },
    });
    const deposit = created.body.data.depositAddress as Address;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, deposit, parseUnits("9", 18)) });
    await chain().client.mine({ blocks: 1 });
    await scanNetworkStep(handle.db, "bsc");
    expect((await handle.db.select().from(forwards)).map((f) => f.status)).toEqual(["pending"]);
    await handle.close();

    // The worker tops up the gas, which stays unmined; it is killed while it waits to sweep.
    await killForwarderAfterItSends(chain(), { tank, sentBefore: 0, env: env(), what: "the gas top-up" });

    handle = await openFileDatabase(dir); // the restart
    const [afterCrash] = await handle.db.select().from(forwards);
    expect(afterCrash!.status).toBe("gas_sent");
    // The killed worker may have died holding its lease on the forward; it would lapse in a
    // minute. Skip that wait: what is under test is what the restart does next.
    await handle.db.update(forwards).set({ lockedUntil: null });
    await runEngine(handle.db, chain().url, { mine: true });

    const [done] = await handle.db.select().from(forwards);
    expect(done!.status).toBe("completed");
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(parseUnits("9", 18));
    expect(await tokenBalance(chain().url, token, deposit)).toBe(0n);
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(1); // one top-up, not two
    expect(await chain().client.getTransactionCount({ address: deposit })).toBe(1); // one sweep
    expect(keyRingFor(TEST_MNEMONIC).gasTankAddress()).toBe(tank);
  });
});
