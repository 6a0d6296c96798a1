import { and, eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { chainTransactions, forwards } from "@/lib/db/schema";
import { tendLedger } from "@/lib/engine/ledger/watchdog";
import { getHealth } from "@/lib/ops/health/health";
import { operatorStatus } from "@/lib/ops/health/status";
import { dueForwardsStep, forwardStep, planForwardsStep, scanNetworkStep } from "@/lib/ops/jobs/steps";
import { renderMetrics } from "@/lib/ops/metrics/collect";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { type ReceiptLagProxy, startReceiptLagProxy } from "../helpers/receipt-lag-proxy";

/**
 * The gas tank's top-ups of classic sweeps are ledger rows: one the node answers "underpriced"
 * (which senders take as landed) would hold the tank's next nonce — and every later top-up, batch
 * and deployment of the network — forever. The ledger's watchdog re-prices it past the bound and
 * shows the stall meanwhile.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955" as Address;
const env = (url: string) => ({
  BSC_RPC_URL: url,
  NEXTAUTH_SECRET: "integration-test-secret-0123456789",
  CONFIRMATIONS: "1",
  SWEEP_MODE: "classic",
});

let proxy: ReceiptLagProxy;
let merchant: Merchant;
let token: Address;
let tank: Address;

beforeAll(async () => {
  useConfig(env(chain().url));
  token = await deployTestToken(chain().url, { symbol: "TUP" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
  tank = await fundGasTank(chain().url);
  proxy = await startReceiptLagProxy(chain().url, 0);
  useConfig(env(proxy.url));
});

afterAll(async () => {
  await proxy?.close();
});

async function paidSession(amount: string): Promise<Address> {
  const created = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: merchant.tokenId, amount, merchantWallet: MERCHANT_WALLET },
  });
  const deposit = created.body.data.depositAddress as Address;
  await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, deposit, parseUnits(amount, 18)) });
  return deposit;
}

describe("a gas top-up the node answers 'underpriced' at the tank's next nonce", () => {
  it("is re-priced past the bound, the forwards behind it complete, and the stall shows in health, admin status and the metric meanwhile", async () => {
    const deposits = [await paidSession("3"), await paidSession("4")];
    await chain().client.mine({ blocks: 1 });
    const tankSent = await chain().client.getTransactionCount({ address: tank });
    proxy.refuseRawAs = "transaction underpriced";
    for (let i = 0; i < 3 && (await scanNetworkStep(db(), "bsc")).behind > 0; i++);
    await planForwardsStep(db());
    for (const { forwardId } of await dueForwardsStep(db(), 10)) await forwardStep(db(), forwardId);
    const topUps = await db()
      .select()
      .from(chainTransactions)
      .where(and(eq(chainTransactions.kind, "sweep_gas"), eq(chainTransactions.wallet, tank)))
      .orderBy(chainTransactions.nonce);
    expect(topUps.map((t) => t.nonce)).toEqual([tankSent, tankSent + 1]); // the second waits behind the first
    expect((await db().select().from(forwards)).map((f) => f.status)).toEqual(["gas_sent", "gas_sent"]);

    await tendLedger(db());
    expect(await db().select().from(chainTransactions).where(eq(chainTransactions.kind, "sweep_gas"))).toHaveLength(2); // young: nothing re-priced

    // Two minutes on, neither is mined: only the one at the tank's next nonce blocks the others.
    await db()
      .update(chainTransactions)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(chainTransactions.kind, "sweep_gas"));
    await tendLedger(db());
    const ofNonce = (nonce: number) =>
      db()
        .select()
        .from(chainTransactions)
        .where(and(eq(chainTransactions.wallet, tank), eq(chainTransactions.nonce, nonce)))
        .orderBy(chainTransactions.id);
    const [first, repriced] = await ofNonce(tankSent);
    expect(repriced).toMatchObject({ kind: "sweep_gas", replacesId: first!.id, toAddress: first!.toAddress, value: first!.value });
    expect(repriced!.gasPrice).toBeGreaterThanOrEqual(first!.gasPrice * 2n);
    expect(await ofNonce(tankSent + 1)).toHaveLength(1);

    const health = await getHealth({ startApp: false });
    expect(health.status).toBe("degraded");
    expect(health.chains.bsc!.stuckWallets).toEqual([
      { wallet: "gas_tank", kind: "sweep_gas", nonce: tankSent, since: first!.createdAt.toISOString() },
    ]);
    const status = await operatorStatus(db());
    expect(status.healthy).toBe(false);
    expect(status.lines.join("\n")).toContain(`gas_tank ${tank}: sweep_gas at nonce ${tankSent} not mined for 2 min`);
    const stuck = (await renderMetrics(db())).body.match(
      new RegExp(`bscpay_wallet_stuck_seconds\\{network="bsc",wallet="${tank}"\\} (\\d+)`),
    );
    expect(Number(stuck?.[1])).toBeGreaterThanOrEqual(120);

    // The node takes transactions again: the re-priced top-up, then the one behind it, then both sweeps.
    proxy.refuseRawAs = null;
    await runEngine(db(), chain().url);
    expect((await db().select().from(forwards)).map((f) => f.status)).toEqual(["completed", "completed"]);
    expect((await ofNonce(tankSent)).map((r) => r.status)).toEqual(["replaced", "mined"]);
    expect(await chain().client.getTransactionCount({ address: tank })).toBe(tankSent + 2);
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(parseUnits("7", 18));
    for (const deposit of deposits) expect(await tokenBalance(chain().url, token, deposit)).toBe(0n);
    expect((await getHealth({ startApp: false })).chains.bsc!.stuckWallets).toEqual([]);
  });
});
