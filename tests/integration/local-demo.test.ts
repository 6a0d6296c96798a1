import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { erc20Abi, formatUnits } from "viem";
import { describe, expect, it, vi } from "vitest";
import { apiKeys, appState, chainCursors, domains, subscriptions, tokenCatalogue, tokens, users } from "@/lib/db/schema";
import { parseFiatAmount } from "@/lib/domain/pricing/fiat";
import { pricedCatalogueToken, quoteTokensOnChain } from "@/lib/domain/pricing/price-tokens";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { setLocalRpcUrl } from "@/lib/engine/chain/networks";
import { startAnvil } from "@/lib/engine/dev/anvil";
import { DEMO_FEEDS } from "@/lib/engine/dev/demo-feeds";
import { DEMO_TOKEN_ADDRESS } from "@/lib/engine/dev/demo-token";
import { DEMO_EMAIL, seedLocalDemo } from "@/lib/ops/seed/demo-merchant";
import { chainClient, payer, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();
const chain = useTestChain();

function config() {
  return useConfig({
    LOCAL_RPC_URL: chain().url,
    LOCAL_CHAIN_STATE_DIR: mkdtempSync(join(tmpdir(), "bscpay-seed-")),
    NEXTAUTH_URL: "http://localhost:3000",
  });
}

describe("local demo seed", () => {
  it("deploys the demo token, funds the gas tank and creates a ready-to-use merchant once", async () => {
    const cfg = config();
    const print = vi.spyOn(console, "log").mockImplementation(() => {});
    await seedLocalDemo(db(), cfg, chain().url);
    expect(print).toHaveBeenCalledTimes(1);
    const announcement = String(print.mock.calls[0]![0]);
    expect(announcement).toContain(DEMO_EMAIL);
    expect(announcement).toMatch(/API key: +bscp_live_/);

    const client = chain().client;
    expect(await client.getCode({ address: DEMO_TOKEN_ADDRESS })).toMatch(/^0x.{10,}/);
    const balance = await client.readContract({
      address: DEMO_TOKEN_ADDRESS,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [payer.address],
    });
    expect(formatUnits(balance, 18)).toBe("1000000");
    expect(await client.getBalance({ address: keyRingFor(cfg.masterMnemonic).gasTankAddress() })).toBeGreaterThan(0n);

    const [user] = await db().select().from(users).where(eq(users.email, DEMO_EMAIL));
    expect(user).toBeDefined();
    const [token] = await db().select().from(tokens).where(eq(tokens.userId, user!.id));
    expect(token).toMatchObject({ contractAddress: DEMO_TOKEN_ADDRESS, symbol: "DUSD", decimals: 18, network: "local" });
    const [domain] = await db().select().from(domains).where(eq(domains.userId, user!.id));
    expect(domain).toMatchObject({
      origin: "http://localhost:3000",
      withdrawalAddress: keyRingFor(cfg.masterMnemonic).withdrawalAddress(domain!.id),
    });
    const [subscription] = await db().select().from(subscriptions).where(eq(subscriptions.userId, user!.id));
    expect(subscription).toMatchObject({ planId: "starter", status: "active" });
    const keys = await db().select().from(apiKeys).where(eq(apiKeys.userId, user!.id));
    expect(keys).toHaveLength(1);
    expect(announcement).not.toContain(keys[0]!.keyHash);

    // The demo feeds price DUSD offline, in USD and in EUR (the local chain has no Multicall3: single reads).
    for (const { address } of DEMO_FEEDS) expect(await client.getCode({ address })).toMatch(/^0x.{10,}/);
    const [dusd] = await db().select().from(tokenCatalogue).where(eq(tokenCatalogue.contractAddress, DEMO_TOKEN_ADDRESS));
    setLocalRpcUrl(chain().url);
    for (const [currency, rate] of [
      ["USD", "1.00000000"],
      ["EUR", "0.92592592"],
    ] as const) {
      const fiat = parseFiatAmount(currency, "25.00");
      if (!fiat.ok) throw new Error(fiat.problem);
      const [quote] = await quoteTokensOnChain(db(), { network: "local", fiat: fiat.amount, tokens: [pricedCatalogueToken(dusd!)] });
      expect(quote, currency).toMatchObject({ ok: true, tokenAddress: DEMO_TOKEN_ADDRESS, rate, offPeg: false });
    }

    // A second start changes nothing and prints nothing.
    await seedLocalDemo(db(), cfg, chain().url);
    expect(print).toHaveBeenCalledTimes(1);
    expect(await db().select().from(users)).toHaveLength(1);
    expect(await db().select().from(appState)).toHaveLength(1);
    print.mockRestore();
  });

  it("redeploys the demo token at the same address when the chain was reset, and rewinds a cursor ahead of the head", async () => {
    const fresh = await startAnvil();
    try {
      const cfg = useConfig({ LOCAL_RPC_URL: fresh.url, LOCAL_CHAIN_STATE_DIR: mkdtempSync(join(tmpdir(), "bscpay-seed-")) });
      setLocalRpcUrl(fresh.url);
      await db().insert(chainCursors).values({ network: "local", lastScannedBlock: 1_000_000n });
      await seedLocalDemo(db(), cfg, fresh.url);
      expect(await chainClient(fresh.url).getCode({ address: DEMO_TOKEN_ADDRESS })).toMatch(/^0x.{10,}/);
      for (const { address } of DEMO_FEEDS) expect(await chainClient(fresh.url).getCode({ address })).toMatch(/^0x.{10,}/);
      const [cursor] = await db().select().from(chainCursors).where(eq(chainCursors.network, "local"));
      expect(cursor!.lastScannedBlock).toBe(await chainClient(fresh.url).getBlockNumber());
      const [token] = await db().select().from(tokens);
      expect(token!.contractAddress).toBe(DEMO_TOKEN_ADDRESS);
    } finally {
      await fresh.stop();
    }
  });
});
