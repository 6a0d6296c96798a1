import type { APIRequestContext } from "@playwright/test";
import { type Address, createPublicClient, createWalletClient, defineChain, erc20Abi, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_DEFAULT_KEYS, DEMO_TOKEN_ADDRESS } from "../../../lib/engine/dev/demo-token";

/** The embedded anvil of the e2e server (see playwright.config.ts). */
export const rpcUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3107) + 10_000}`;
export const local = defineChain({
  id: 31337,
  name: "local",
  nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } },
});
export const chain = createPublicClient({ chain: local, transport: http(rpcUrl) });

/** A merchant set up over the API (plan, demo token, domains, API key), as a shop developer would. */
export async function apiMerchant(request: APIRequestContext, domains: string[]) {
  const email = `checkout-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "correct horse battery";
  await request.post("/api/user/register", { data: { email, password } });
  const { token } = (await (await request.post("/api/user/token", { data: { email, password } })).json()).data;
  const headers = { authorization: `Bearer ${token}` };
  await request.post("/api/user/package", { headers, data: { plan: "starter" } });
  const { tokenId } = (
    await (await request.post("/api/user/tokens", { headers, data: { contractAddress: DEMO_TOKEN_ADDRESS, network: "local" } })).json()
  ).data;
  for (const domain of domains) await request.post("/api/user/domains", { headers, data: { domain } });
  const { key } = (await (await request.post("/api/user/api-keys", { headers, data: { name: "shop" } })).json()).data;
  return {
    email,
    password,
    /** Bearer headers of the merchant's user API (/api/user/…). */
    headers,
    tokenId: tokenId as number,
    key,
    async createPayment(amount: string, extra: Record<string, unknown> = {}) {
      const res = await request.post("/api/v1/payment/create", { headers: { "x-api-key": key }, data: { tokenId, amount, ...extra } });
      if (res.status() !== 201) throw new Error(`create failed: ${await res.text()}`);
      return (await res.json()).data as { sessionId: string; depositAddress: Address; checkoutUrl: string };
    },
    async status(sessionId: string) {
      return (await (await request.get(`/api/v1/payment/${sessionId}/status`, { headers: { "x-api-key": key } })).json()).data;
    },
  };
}

/** A direct transfer from one of anvil's funded accounts (not through the page). */
export async function payDirectly(to: Address, amount: string, keyIndex = 2) {
  const wallet = createWalletClient({ account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[keyIndex]!), chain: local, transport: http(rpcUrl) });
  const hash = await wallet.writeContract({
    address: DEMO_TOKEN_ADDRESS,
    abi: erc20Abi,
    functionName: "transfer",
    args: [to, parseUnits(amount, 18)],
  });
  await chain.waitForTransactionReceipt({ hash });
  return hash;
}
