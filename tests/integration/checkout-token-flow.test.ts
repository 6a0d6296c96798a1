/**
 * A fiat-priced checkout from create to paid, on a real chain with its price feeds (docs/design.md §23):
 * the create API quotes two stablecoins, the page asks for the first, the payer chooses the other,
 * pays exactly its quote, and the engine completes the session in it. Once part has arrived the
 * token can no longer be changed.
 */

import type { Address, Hex } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as checkout } from "@/app/api/checkout/[sessionId]/route";
import { POST as chooseToken } from "@/app/api/checkout/[sessionId]/token/route";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { forgetMulticall, MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { DEMO_DUSD_USD_FEED, ensureDemoFeeds } from "@/lib/engine/dev/demo-feeds";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
let merchant: Merchant;
let usdt: Address;
let usdc: Address;
let usdcId: number;

async function fiatSession(): Promise<{ sessionId: string; depositAddress: Address }> {
  const res = await call(create, { method: "POST", headers: { "x-api-key": merchant.apiKey }, body: { currency: "USD", amount: "25.00" } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}
const view = async (sessionId: string) => (await call(checkout, { params: { sessionId } })).body.data;
const choose = (sessionId: string, tokenId: number) => call(chooseToken, { method: "POST", params: { sessionId }, body: { tokenId } });
async function pay(token: Address, to: Address, amount: bigint): Promise<Hex> {
  const hash = await payTo(chain().url, token, to, amount);
  await chain().client.waitForTransactionReceipt({ hash });
  await runEngine(db(), chain().url);
  return hash;
}

beforeAll(async () => {
  await chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  forgetMulticall("bsc");
  await ensureDemoFeeds(chain().url);
  usdt = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  usdc = await deployTestToken(chain().url, { symbol: "USDC", decimals: 6 });
  for (const token of [usdt, usdc]) {
    await tokensCommand(db(), ["allow", "bsc", token]);
    await tokensCommand(db(), ["feed", "bsc", token, DEMO_DUSD_USD_FEED, "--heartbeat", "3600", "--pegged"]);
  }
  merchant = await setUpMerchant({ contractAddress: usdt, network: "bsc" });
  const registered = await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: usdc, network: "bsc" } });
  usdcId = registered.body.data.tokenId;
  await fundGasTank(chain().url);
});

describe("a fiat-priced checkout, from create to paid in the chosen token", () => {
  it("asks for the first quoted token, switches to the chosen one, and completes when exactly its quote arrives", async () => {
    const session = await fiatSession();
    const before = await view(session.sessionId);
    expect(before).toMatchObject({ token: "USDT", amount: "25", fiat: { currency: "USD", fiatAmount: "25.00", tokenChosen: false } });
    expect(before.fiat.quotes.map((q: { token: string; amount: string; rate: string }) => [q.token, q.amount, q.rate])).toEqual([
      ["USDT", "25", "1.00000000"],
      ["USDC", "25", "1.00000000"],
    ]);

    const chosen = await choose(session.sessionId, usdcId);
    expect(chosen.status).toBe(200);
    expect(chosen.body.data).toMatchObject({ token: "USDC", decimals: 6, amountUnits: "25000000", fiat: { tokenChosen: true } });
    expect(chosen.body.data.paymentUri.toLowerCase()).toMatch(
      new RegExp(`^ethereum:${usdc.toLowerCase()}@56/transfer\\?.*uint256=25000000$`),
    );

    const hash = await pay(usdc, session.depositAddress, 25_000_000n);
    expect(await view(session.sessionId)).toMatchObject({ status: "completed", token: "USDC", receivedAmount: "25", txHash: hash });
    const merchantStatus = (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId: session.sessionId } }))
      .body.data;
    expect(merchantStatus).toMatchObject({ status: "completed", token: "USDC", currency: "USD", fiatAmount: "25.00" });
    expect((await choose(session.sessionId, usdcId)).body.error.reason).toBe("payment-not-pending");
  });

  it("a payment in another offered token than the one chosen still pays it, and the page then shows the token paid", async () => {
    const session = await fiatSession();
    await choose(session.sessionId, usdcId);
    await pay(usdt, session.depositAddress, 25n * 10n ** 18n);
    expect(await view(session.sessionId)).toMatchObject({
      status: "completed",
      token: "USDT",
      receivedAmount: "25",
      fiat: { tokenChosen: true },
    });
  });

  it("after part has arrived in the chosen token the rest is asked in it: another choice is refused", async () => {
    const session = await fiatSession();
    await choose(session.sessionId, usdcId);
    await pay(usdc, session.depositAddress, 10_000_000n);
    expect(await view(session.sessionId)).toMatchObject({
      status: "pending",
      token: "USDC",
      receivedAmount: "10",
      remainingUnits: "15000000",
    });
    const refused = await choose(session.sessionId, merchant.tokenId);
    expect(refused.status).toBe(400);
    expect(refused.body.error.reason).toBe("payment-partly-paid");
    expect(await view(session.sessionId)).toMatchObject({ token: "USDC", remainingUnits: "15000000" });
  });
});
