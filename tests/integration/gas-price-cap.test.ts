import { and, eq } from "drizzle-orm";
import { type Address, parseEther, parseGwei, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as healthGet } from "@/app/api/health/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { chainTransactions, forwards, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { operatorStatus } from "@/lib/ops/health/status";
import { renderMetrics } from "@/lib/ops/metrics/collect";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";
import { recorded } from "../helpers/withdrawals";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

// A compromised or misrouted provider answers eth_gasPrice = 1,000 gwei (docs/design.md §21, MAX_GAS_PRICE).
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x4b0897b0513fdc7c541b6d9d7e929c4e5364d2db" as Address;
const RECIPIENT = "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097" as Address;
let proxy: RpcProxy;
let merchant: Merchant;
let token: Address;
let tank: Address;
let wallet: Address;

beforeAll(async () => {
  proxy = await startRpcProxy(chain().url);
  useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  tank = await fundGasTank(chain().url);
  const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
  token = await deployTestToken(chain().url, { symbol: "CAP", mintTo: [wallet, (await import("../helpers/chain")).payer.address] });
  const { POST: registerToken } = await import("@/app/api/user/tokens/route");
  await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(await (await import("@/lib/db")).getDb(), "bsc", token);
  merchant.tokenId = (
    await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
  ).body.data.tokenId;
  await chain().client.setBalance({ address: wallet, value: parseEther("1") });
});
afterAll(async () => proxy.close());

describe("MAX_GAS_PRICE: a 1,000-gwei answer signs nothing", () => {
  it("refuses a withdrawal clearly, records nothing, and the wallet's nonce does not move", async () => {
    proxy.options.gasPriceWei = parseGwei("1000");
    try {
      const before = await chain().client.getTransactionCount({ address: wallet, blockTag: "pending" });
      const res = await call(send, {
        method: "POST",
        headers: { "x-api-key": merchant.apiKey },
        body: { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: RECIPIENT, amount: "1" },
      });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe("BLOCKCHAIN_ERROR");
      expect(res.body.error.message).toContain("above MAX_GAS_PRICE (10 gwei)");
      expect(await db().select().from(withdrawals)).toHaveLength(0);
      expect(await db().select().from(chainTransactions)).toHaveLength(0);
      expect(await chain().client.getTransactionCount({ address: wallet, blockTag: "pending" })).toBe(before);
    } finally {
      proxy.options.gasPriceWei = undefined;
    }
    // Back under the cap, the same request goes through.
    const ok = await call(send, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: RECIPIENT, amount: "1" },
    });
    expect(ok.status).toBe(201);
  });

  it("leaves a sweep waiting (not held, nothing counted), shows it in health, metrics and admin status, then sweeps once the price is back", async () => {
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "2", merchantWallet: MERCHANT_WALLET },
    });
    expect(created.status).toBe(201);
    const { depositAddress } = created.body.data;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, depositAddress, parseUnits("2", 18)) });
    await chain().client.mine({ blocks: 1 });
    const tankNonce = await chain().client.getTransactionCount({ address: tank, blockTag: "pending" });
    const rows = (await db().select().from(chainTransactions)).length;

    proxy.options.gasPriceWei = parseGwei("1000");
    // More rounds than the 8 counted failures that hold a forward.
    await expect(runEngine(db(), proxy.url, { rounds: 12 })).rejects.toThrow("engine did not settle");
    const [waiting] = await db().select().from(forwards);
    expect(waiting!.status).toBe("pending");
    expect(waiting!.attempts).toBe(0);
    expect(await chain().client.getTransactionCount({ address: tank, blockTag: "pending" })).toBe(tankNonce);
    expect(await db().select().from(chainTransactions)).toHaveLength(rows);

    const health = await (await healthGet()).json();
    expect(health.status).toBe("degraded");
    expect(health.chains.bsc.gasPrice).toEqual({ current: "1000", max: "10", aboveMax: true });
    const metrics = (await renderMetrics(db())).body;
    expect(metrics).toContain('bscpay_gas_price_above_max{network="bsc"} 1');
    const status = await operatorStatus(db());
    expect(status.healthy).toBe(false);
    expect(status.lines.join("\n")).toContain("above MAX_GAS_PRICE (10 gwei): sweeps, top-ups and withdrawals wait");

    proxy.options.gasPriceWei = undefined;
    await runEngine(db(), proxy.url);
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(parseUnits("2", 18));
    const [done] = await db().select().from(forwards).where(eq(forwards.id, waiting!.id));
    expect(done!.status).toBe("completed");
    const after = await (await healthGet()).json();
    expect(after.chains.bsc.gasPrice.aboveMax).toBe(false);
    expect((await renderMetrics(db())).body).toContain('bscpay_gas_price_above_max{network="bsc"} 0');
  });

  it("re-prices a stuck withdrawal up to MAX_GAS_PRICE and no further (doubling would pass it)", async () => {
    const { tendLedger } = await import("@/lib/engine/ledger/watchdog");
    await chain().client.setAutomine(false);
    proxy.options.gasPriceWei = parseGwei("6"); // under the 10-gwei cap: signed at 6
    try {
      const res = await call(send, {
        method: "POST",
        headers: { "x-api-key": merchant.apiKey },
        body: { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: RECIPIENT, amount: "1" },
      });
      expect(res.status).toBe(201);
      const [withdrawal] = await db().select().from(withdrawals).where(eq(withdrawals.id, res.body.data.withdrawalId));
      const nonceRows = () =>
        db()
          .select()
          .from(chainTransactions)
          .where(and(eq(chainTransactions.wallet, wallet), eq(chainTransactions.nonce, recorded(withdrawal).nonce)))
          .orderBy(chainTransactions.id);
      // Not mined for over a minute: the watchdog re-prices — to the cap, not to 12 gwei.
      await tendLedger(db(), new Date(Date.now() + 61_000));
      expect((await nonceRows()).map((r) => r.gasPrice)).toEqual([parseGwei("6"), parseGwei("10")]);
      // Stuck again: at the cap already, there is no room for a replacement a node would take.
      await tendLedger(db(), new Date(Date.now() + 122_000));
      expect((await nonceRows()).map((r) => r.gasPrice)).toEqual([parseGwei("6"), parseGwei("10")]);
      await chain().client.mine({ blocks: 1 });
      await tendLedger(db());
      expect((await nonceRows()).map((r) => r.status).sort()).toEqual(["mined", "replaced"]);
    } finally {
      proxy.options.gasPriceWei = undefined;
      await chain().client.setAutomine(true);
    }
  });
});
