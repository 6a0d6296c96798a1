/**
 * Sets up a merchant for this shop on a BSC Pay you run (by default `npm run dev` on
 * http://localhost:3000, with its local chain and demo token DUSD) and writes .env:
 * an account, a plan, the token, the shop's domain with its webhook URL, and an API key.
 * On a real BSC Pay you do the same in the dashboard (Domains, API keys) and write .env by hand.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bscPayUrl = (process.env.BSC_PAY_URL ?? "http://localhost:3000").replace(/\/$/, "");
const shopPort = Number(process.env.SHOP_PORT ?? 4000);
const shopOrigin = `http://127.0.0.1:${shopPort}`;
// The demo token `npm run dev` deploys on its local chain (the same address on every machine).
const tokenAddress = process.env.BSC_PAY_TOKEN_ADDRESS ?? "0xe9bdd65d1d9B1898EBa08387D38Cc19BFe6b5CA2";
const network = process.env.BSC_PAY_NETWORK ?? "local";
const email = process.env.SHOP_MERCHANT_EMAIL ?? `shop-${randomBytes(4).toString("hex")}@example.com`;
const password = process.env.SHOP_MERCHANT_PASSWORD ?? randomBytes(12).toString("base64url");

async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${bscPayUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => null)) as { success: boolean; data: T; error?: { message: string } } | null;
  if (!answer?.success) throw new Error(`${method} ${path}: ${answer?.error?.message ?? `HTTP ${res.status}`}`);
  return answer.data;
}

await call("POST", "/api/user/register", { email, password });
const { token } = await call<{ token: string }>("POST", "/api/user/token", { email, password });
await call("POST", "/api/user/package", { plan: "starter" }, token);
const registered = await call<{ tokenId: number; symbol: string }>(
  "POST",
  "/api/user/tokens",
  { contractAddress: tokenAddress, network },
  token,
);
const { domainId } = await call<{ domainId: number }>("POST", "/api/user/domains", { domain: shopOrigin }, token);
const { webhookSecret } = await call<{ webhookSecret: string }>(
  "PATCH",
  `/api/user/domains/${domainId}`,
  { webhookUrl: `${shopOrigin}/webhooks/bsc-pay` },
  token,
);
const { key } = await call<{ key: string }>(
  "POST",
  "/api/user/api-keys",
  { name: "example shop", scopes: ["payments:write", "payments:read"] },
  token,
);

const env = {
  BSC_PAY_URL: bscPayUrl,
  BSC_PAY_API_KEY: key,
  BSC_PAY_WEBHOOK_SECRET: webhookSecret,
  BSC_PAY_TOKEN_ID: String(registered.tokenId),
  BSC_PAY_TOKEN_SYMBOL: registered.symbol,
  SHOP_PORT: String(shopPort),
  // The dashboard sign-in of this merchant (not read by the shop): kept here, never printed.
  SHOP_MERCHANT_EMAIL: email,
  SHOP_MERCHANT_PASSWORD: password,
};
const envFile = process.env.SHOP_ENV_FILE ?? fileURLToPath(new URL("./.env", import.meta.url));
writeFileSync(
  envFile,
  `${Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join("\n")}\n`,
  { mode: 0o600 },
);
chmodSync(envFile, 0o600); // `mode` applies only to a file written the first time
console.log(`Merchant ${email} set up on ${bscPayUrl} for ${shopOrigin}.`);
console.log(`Wrote ${envFile} (API key, webhook secret, the dashboard password). Next: npm start`);
