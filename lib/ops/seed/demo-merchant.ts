import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { and, eq, gt, sql } from "drizzle-orm";
import { createApiKey } from "../../accounts/api-keys/create-api-key";
import { createUser } from "../../accounts/users/create-user";
import type { Config } from "../../base/config";
import type { Db } from "../../db";
import { appState, chainCursors, currencyFeeds, tokenCatalogue } from "../../db/schema";
import { addDomain } from "../../domain/merchant-domains/add-domain";
import { activatePlan } from "../../domain/plans/activate-plan";
import { registerToken } from "../../domain/tokens/register-token";
import { publicClientFor } from "../../engine/chain/networks";
import { serviceAddresses } from "../../engine/chain/wallet-addresses";
import { DEMO_DUSD_USD_FEED, DEMO_EUR_USD_FEED, ensureDemoFeeds } from "../../engine/dev/demo-feeds";
import { DEMO_TOKEN, DEMO_TOKEN_ADDRESS, ensureDemoToken, ensureLocalBalance } from "../../engine/dev/demo-token";

export const DEMO_EMAIL = "demo@bscpay.local";
const SEED_LOCK_ID = 7_284_019_332;
/** The demo feeds follow the chain's clock (lib/engine/dev/demo-feeds.ts); an hour is what a pinned round may age. */
const DEMO_FEED_HEARTBEAT_SECONDS = 3600;
const DEMO_DUSD_PRICING = { usdFeed: DEMO_DUSD_USD_FEED, feedHeartbeatSeconds: DEMO_FEED_HEARTBEAT_SECONDS, usdPegged: true };

/**
 * Makes the embedded network usable with no set-up: the demo token and price feeds exist on chain, the gas tank
 * has BNB, the scan cursor is not ahead of a reset chain, and (once per database) a demo merchant
 * with a password, an API key, a whitelisted domain, the demo token and the starter plan.
 */
export async function seedLocalDemo(db: Db, config: Config, rpcUrl: string): Promise<void> {
  await ensureDemoToken(rpcUrl);
  await ensureDemoFeeds(rpcUrl);
  await ensureLocalBalance(rpcUrl, serviceAddresses(config.masterMnemonic).gasTank());
  await clampCursorToHead(db);
  // Seeded by migration too; kept here so the demo never depends on the address in that SQL.
  await db
    .insert(tokenCatalogue)
    .values({
      network: "local",
      contractAddress: DEMO_TOKEN_ADDRESS,
      ...DEMO_TOKEN,
      minForwardAmount: 10n ** 16n,
      addedBy: "seed",
      ...DEMO_DUSD_PRICING,
    })
    .onConflictDoNothing();
  await db
    .insert(currencyFeeds)
    .values({ network: "local", currency: "EUR", usdFeed: DEMO_EUR_USD_FEED, heartbeatSeconds: DEMO_FEED_HEARTBEAT_SECONDS })
    .onConflictDoNothing();

  const credentials = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`);
    const [seeded] = await tx.select().from(appState).where(eq(appState.key, "demo_merchant"));
    if (seeded) return null;
    const password = randomBytes(12).toString("base64url");
    const user = await createUser(tx, { email: DEMO_EMAIL, password });
    await activatePlan(tx, user.id, "starter");
    const domain = await addDomain(tx, user.id, config.siteUrl);
    const { token } = await registerToken(tx, user.id, { contractAddress: DEMO_TOKEN_ADDRESS, network: "local" });
    const { key } = await createApiKey(tx, user.id, "demo");
    await tx.insert(appState).values({ key: "demo_merchant", value: { userId: user.id, email: DEMO_EMAIL } });
    return { password, apiKey: key, tokenId: token.id, domainId: domain.id, withdrawalWallet: domain.withdrawalAddress };
  });
  if (credentials) announce(config, credentials);
}

/** After an anvil reset the chain may be behind the database's cursor: rescan from the new head. */
async function clampCursorToHead(db: Db): Promise<void> {
  const head = await publicClientFor("local").getBlockNumber({ cacheTime: 0 });
  await db
    .update(chainCursors)
    .set({ lastScannedBlock: head, updatedAt: new Date() })
    .where(and(eq(chainCursors.network, "local"), gt(chainCursors.lastScannedBlock, head)));
}

function announce(
  config: Config,
  c: { password: string; apiKey: string; tokenId: number; domainId: number; withdrawalWallet: string | null },
): void {
  const lines = [
    "BSC Pay demo merchant (shown once; also saved to .data/demo-merchant.txt)",
    `  dashboard:   ${config.siteUrl}/login   email ${DEMO_EMAIL}   password ${c.password}`,
    `  API key:     ${c.apiKey}`,
    `  token:       tokenId ${c.tokenId} = DUSD ${DEMO_TOKEN_ADDRESS} on network local`,
    `  domain:      domainId ${c.domainId} = ${config.siteUrl} (withdrawal wallet ${c.withdrawalWallet})`,
  ];
  const dir = resolve(/*turbopackIgnore: true*/ config.localChain?.stateDir ?? ".data");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "demo-merchant.txt"), `${lines.join("\n")}\n`, { mode: 0o600 });
  // Deliberately console, not the logger: this is a one-time hand-over to the developer at the terminal.
  console.log(`\n${lines.join("\n")}\n`);
}
