import { getAddress } from "viem";
import { POST as addDomain } from "@/app/api/user/domains/route";
import { POST as choosePlan } from "@/app/api/user/package/route";
import { POST as register } from "@/app/api/user/register/route";
import { POST as issueToken } from "@/app/api/user/token/route";
import { POST as registerToken } from "@/app/api/user/tokens/route";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { readBearerToken } from "@/lib/accounts/auth/bearer-token";
import { getDb } from "@/lib/db";
import { allowCatalogueToken } from "@/lib/domain/tokens/catalogue";
import { bearer, call } from "./http";

let counter = 0;

/** Registers a fresh user over the real handlers and returns its bearer headers. */
export async function signUp(email = `merchant${++counter}-${Date.now()}@example.com`, password = "correct horse battery") {
  const registered = await call(register, { method: "POST", body: { email, password } });
  if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const token = await call(issueToken, { method: "POST", body: { email, password } });
  return { email, password, userId: registered.body.data.userId as number, auth: bearer(token.body.data.token) };
}

/**
 * A secret key with every scope of the bearer's home account, made by its owner. Made as the
 * operator's tools make one (createApiKey): over HTTP a money scope needs the owner's two-factor
 * code (docs/design.md §26; tests/integration/api-key-scopes.test.ts and key-holders.test.ts walk that
 * door), which the many tests that only need a working key should not have to set up.
 */
export async function newApiKey(auth: Record<string, string>, name = "test"): Promise<{ id: number; key: string }> {
  const claims = await readBearerToken((auth.authorization ?? "").replace(/^Bearer /, ""));
  if (!claims) throw new Error("newApiKey needs bearer headers");
  const { record, key } = await createApiKey(await getDb(), Number(claims.sub), name);
  return { id: record.id, key };
}

export interface Merchant {
  email: string;
  userId: number;
  auth: Record<string, string>;
  apiKey: string;
  apiKeyId: number;
  tokenId: number;
  domainId: number;
  withdrawalAddress: string;
}

/** A merchant ready to take payments: starter plan, a token on `network`, a domain, an API key. */
export async function setUpMerchant(options: { contractAddress: string; network: string; domain?: string }): Promise<Merchant> {
  // The operator accepts the token first (the catalogue); allowing it again changes nothing.
  await allowCatalogueToken(await getDb(), options.network, getAddress(options.contractAddress));
  const { email, userId, auth } = await signUp();
  await call(choosePlan, { method: "POST", headers: auth, body: { plan: "starter" } });
  const token = await call(registerToken, {
    method: "POST",
    headers: auth,
    body: { contractAddress: options.contractAddress, network: options.network },
  });
  if (token.status >= 300) throw new Error(`token failed: ${JSON.stringify(token.body)}`);
  const domain = await call(addDomain, { method: "POST", headers: auth, body: { domain: options.domain ?? "https://shop.example.com" } });
  const key = await newApiKey(auth);
  return {
    email,
    userId,
    auth,
    apiKey: key.key,
    apiKeyId: key.id,
    tokenId: token.body.data.tokenId,
    domainId: domain.body.data.domainId,
    withdrawalAddress: domain.body.data.withdrawalAddress,
  };
}
