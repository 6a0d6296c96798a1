import { getAddress } from "viem";
import { openPostgres } from "@/lib/db/client";
import { tokenCatalogue } from "@/lib/db/schema";
import { grantPlan } from "@/lib/domain/plans/grant-plan";

/** A merchant set up over HTTP as a shop would, with the unlimited plan so quotas stay out of the way. */
export async function benchMerchant(url: string, databaseUrl: string, tokenAddress: string, network = "bsc") {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { success: boolean; data: any };
    if (!json.success) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json.data;
  };
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "benchmark password";
  await post("/api/user/register", { email, password });
  const { token } = await post("/api/user/token", { email, password });
  const auth = { authorization: `Bearer ${token}` };
  const handle = openPostgres(databaseUrl, { max: 1 });
  await grantPlan(handle.db, email, "enterprise");
  // The operator accepts the bench token (what `npm run admin -- tokens allow` records).
  await handle.db
    .insert(tokenCatalogue)
    .values({ network, contractAddress: getAddress(tokenAddress), symbol: "BUSD", name: "Bench USD", decimals: 18 })
    .onConflictDoNothing();
  await handle.close();
  const { tokenId } = await post("/api/user/tokens", { contractAddress: tokenAddress, network }, auth);
  const { domainId } = await post("/api/user/domains", { domain: "https://shop.example.com" }, auth);
  const { key } = await post("/api/user/api-keys", { name: "bench" }, auth);
  return { apiKey: key as string, tokenId: tokenId as number, domainId: domainId as number, auth, email, password };
}
