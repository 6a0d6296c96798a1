import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openPglite } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { forwards, tokenCatalogue, users } from "@/lib/db/schema";
import { DEMO_DUSD_USD_FEED, ensureDemoFeeds } from "@/lib/engine/dev/demo-feeds";
import { DEMO_TOKEN_ADDRESS } from "@/lib/engine/dev/demo-token";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC } from "../helpers/config";

/** `npm run admin -- …` as an operator runs it: a separate process on the same database and chain. */
const chain = useTestChain({ chainId: 56 });

describe("npm run admin (operator commands)", () => {
  // Eight operator processes in a row, each starting tsx and opening PGlite: about 40 s alone, and
  // past a minute while other test files load both cores. The time is not what this test checks.
  it("allows and lists catalogue tokens, sets a token's price feed, lists and releases held forwards, creates users", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "bscpay-admin-cli-")), "pglite");
    const setup = openPglite(dir);
    await migrate(setup.db);
    const [held] = await setup.db
      .insert(forwards)
      .values({
        network: "bsc",
        fromAddress: "0x00000000000000000000000000000000000000a1",
        toAddress: "0x00000000000000000000000000000000000000b2",
        tokenContract: DEMO_TOKEN_ADDRESS,
        amount: 5n,
        status: "held",
        heldReason: "the sweep needs 5023928 gas, above MAX_SWEEP_GAS (150000); nothing was spent",
      })
      .returning();
    await setup.close();
    const token = await deployTestToken(chain().url, { symbol: "CLI", decimals: 6 });
    await ensureDemoFeeds(chain().url);

    const env = {
      ...process.env,
      PGLITE_DIR: dir,
      BSC_RPC_URL: chain().url,
      MASTER_MNEMONIC: TEST_MNEMONIC,
      NEXTAUTH_SECRET: "integration-test-secret-0123456789",
      LOG_LEVEL: "silent",
    };
    const run = (script: string) => spawnSync(process.execPath, ["--import", "tsx", "-e", script], { env, encoding: "utf8" });
    // One process runs several commands in a row, as an operator would one after another.
    const result = run(`
      const { execFileSync } = require("node:child_process");
      const admin = (...args) => { try { return execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { encoding: "utf8", stdio: "pipe" }); } catch (e) { return "EXIT " + e.status + ": " + e.stderr; } };
      console.log(JSON.stringify([
        admin("tokens", "allow", "bsc", "${token}", "--min-forward", "2.5"),
        admin("tokens", "feed", "bsc", "${token}", "${DEMO_DUSD_USD_FEED}", "--heartbeat", "3600", "--pegged"),
        admin("tokens", "list", "bsc"),
        admin("forwards", "held"),
        admin("forwards", "retry", "all"),
        admin("create-user", "operator-made@example.com", "--password", "a long enough password"),
        admin("plans", "set", "starter", "--gas-budget", "0.25", "--max-domains", "5"),
        admin("plans", "list"),
      ]));
    `);
    expect(result.stderr.replace(/npm warn.*\n/g, "")).toBe("");
    // (Bad input, disallow and quarantine are the same functions, tested in-process in tokens and hostile-input.)
    const [allowed, feedSet, listed, heldList, retried, created, planSet, plansListed] = JSON.parse(result.stdout) as string[];
    expect(allowed).toMatch(
      new RegExp(
        `^allowed: bsc +${token} +CLI +6 decimals +min forward 2\\.5 +min withdrawal 2\\.5 \\(default\\) +min payment 2\\.5 \\(default\\) +enabled`,
      ),
    );
    expect(feedSet).toMatch(new RegExp(`^feed set: bsc +${token} +CLI .* feed ${DEMO_DUSD_USD_FEED} heartbeat 3600 s, USD stablecoin\n$`));
    expect(listed).toContain("0x55d398326f99059fF775485246999027B3197955  USDT");
    expect(listed).toContain(`${token}  CLI`);
    expect(listed).not.toContain("DUSD"); // filtered to bsc
    expect(heldList).toContain(`forward ${held!.id} bsc held 0x00000000000000000000000000000000000000a1`);
    expect(heldList).toContain("above MAX_SWEEP_GAS (150000)");
    expect(retried).toContain(`released: forward ${held!.id}`);
    expect(created).toMatch(/^created user \d+ operator-made@example\.com\n$/);
    expect(planSet).toMatch(/^updated: starter +sessions\/month 1000 +gas\/day 0\.25 BNB +withdrawals\/day 100 +domains 5 +self-serve\n$/);
    expect(plansListed).toMatch(/enterprise +sessions\/month unlimited +gas\/day unlimited +withdrawals\/day unlimited +domains unlimited/);

    const check = openPglite(dir);
    const [entry] = await check.db.select().from(tokenCatalogue).where(eq(tokenCatalogue.contractAddress, token));
    expect(entry).toMatchObject({
      enabled: true,
      minForwardAmount: 2_500_000n,
      decimals: 6,
      symbol: "CLI",
      usdFeed: DEMO_DUSD_USD_FEED,
      usdPegged: true,
    });
    expect((await check.db.select().from(forwards).where(eq(forwards.id, held!.id)))[0]).toMatchObject({
      status: "pending",
      attempts: 0,
      heldReason: null,
    });
    expect(await check.db.select().from(users).where(eq(users.email, "operator-made@example.com"))).toHaveLength(1);
    await check.close();
  }, 180_000);
});
