import { type Address, parseUnits } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { POST as payout } from "@/app/api/v1/payouts/route";
import { reconcile } from "@/lib/ops/custody/reconcile";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

/** Reconciliation counts what payout batches took from a withdrawal wallet as sent, like withdrawals. */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
let merchant: Merchant;
let usd: Address;

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  usd = await deployTestToken(chain().url, { symbol: "RPO" });
  merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
  await fundGasTank(chain().url);
});

describe("reconcile after a payout batch", () => {
  it("finds no withdrawal wallet short when a batch paid out what forwards brought it", async () => {
    // 5 RPO forwarded to the domain's withdrawal wallet (no merchantWallet, no payout address).
    const res = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "5" },
    });
    const { depositAddress } = res.body.data as { depositAddress: Address };
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, depositAddress, parseUnits("5", 18)) });
    await chain().client.mine({ blocks: 1 });
    await runEngine(db(), chain().url);

    const items = [0, 1, 2].map((i) => ({ toAddress: `0x${(0x7e57000 + i).toString(16).padStart(40, "0")}`, amount: "1.5" }));
    const sent = await call(payout, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { domainId: merchant.domainId, tokenId: merchant.tokenId, items },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    for (let round = 0; round < 5; round++) {
      await tendLedgerStep(db());
      await chain().client.mine({ blocks: 1 });
    }
    const result = await reconcile(db(), { network: "bsc" });
    expect(result.differences.filter((d) => d.kind === "wallet-short")).toEqual([]);
  });
});
