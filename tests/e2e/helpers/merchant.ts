import type { APIRequestContext } from "@playwright/test";
import { type Address, createPublicClient, createWalletClient, defineChain, erc20Abi, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { totpCode, totpStep } from "../../../lib/accounts/users/totp";
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

/**
 * Turns two-factor on for a merchant over the API and makes them a key with every scope: a key that
 * can send money out (refunds, withdrawals, payouts — merchantWallet too) is made only with its
 * maker's code (docs/design.md §26). Every earlier bearer token ends with the enrolment, so the answer
 * carries fresh `headers`; `code()` gives the next unused code of the authenticator (two were used
 * here; each step's code works once).
 */
export async function moneyKey(request: APIRequestContext, merchant: { headers: Record<string, string>; password: string }, name = "shop") {
  const started = await request.post("/api/user/two-factor", { headers: merchant.headers });
  if (started.status() !== 200) throw new Error(`two-factor set-up failed: ${await started.text()}`);
  const { secret } = (await started.json()).data as { secret: string };
  // The current step's code turns it on: still accepted if the step ends before the server checks it.
  let last = totpStep();
  /** The next step's code not used yet (waiting for it when it is not accepted yet: at most one step ahead). */
  const code = async () => {
    last = Math.max(last + 1, totpStep() - 1);
    while (last > totpStep() + 1) await new Promise((resolve) => setTimeout(resolve, 1_000));
    return totpCode(secret, last);
  };
  const confirmed = await request.post("/api/user/two-factor/confirm", {
    headers: merchant.headers,
    data: { code: totpCode(secret, last), currentPassword: merchant.password },
  });
  if (confirmed.status() !== 200) throw new Error(`two-factor confirm failed: ${await confirmed.text()}`);
  const headers = { authorization: `Bearer ${(await confirmed.json()).data.token}` };
  const created = await request.post("/api/user/api-keys", { headers, data: { name, code: await code() } });
  if (created.status() !== 201) throw new Error(`money key failed: ${await created.text()}`);
  return { key: (await created.json()).data.key as string, headers, secret, code };
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
