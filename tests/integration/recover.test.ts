import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { type Address, getAddress, type Hex, parseEther, parseUnits } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { openPglite } from "@/lib/db/client";
import { chainTransactions, tokenCatalogue } from "@/lib/db/schema";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { recoverCommand } from "@/lib/ops/admin/custody";
import { recoverFunds } from "@/lib/ops/custody/recover";
import { scanNetworkStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const RESCUE = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955" as Address;
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
let merchant: Merchant;
let usd: Address;
let other: Address;

/** `npm run admin -- recover …` in its own process, on a database of its own. */
function admin(args: string[], pgliteDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
      env: {
        PATH: process.env.PATH!,
        HOME: process.env.HOME!,
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        PGLITE_DIR: pgliteDir,
        BSC_RPC_URL: chain().url,
        // A ledger row is final at the confirmation depth: this automining chain adds no block on top by itself.
        CONFIRMATIONS: "1",
        MASTER_MNEMONIC: TEST_MNEMONIC,
        NEXTAUTH_SECRET: "integration-test-secret-0123456789",
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr: stderr.replace(/npm warn.*\n/g, "") }));
  });
}

/** Multicall3 on the chain, two tokens (RUSD, the merchant's, and RSIX), the merchant and a funded gas tank. */
beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  // BSC has Multicall3 at its usual address; so does this chain, for the batched reads.
  await chain().client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });
  usd = await deployTestToken(chain().url, { symbol: "RUSD", decimals: 18 });
  other = await deployTestToken(chain().url, { symbol: "RSIX", decimals: 6 });
  merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
  await fundGasTank(chain().url);
});

describe("recover from the mnemonic alone", () => {
  // Several operator processes in a row (each starts tsx and opens PGlite): past the 60 s default
  // when CI runs the browser tests beside it.
  it("lists exactly the stranded balances on an empty database, moves them, and moves nothing the second time", {
    timeout: 180_000,
  }, async () => {
    const session = async (amount: string) =>
      (
        await call(create, {
          method: "POST",
          headers: { "x-api-key": merchant.apiKey },
          body: { tokenId: merchant.tokenId, amount, merchantWallet: MERCHANT_WALLET },
        })
      ).body.data as { depositAddress: Address };
    const pay = async (token: Address, to: Address, amount: bigint) =>
      chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, to, amount) });

    // Forwarded as usual: nothing left there but BNB dust.
    const swept = await session("5");
    await pay(usd, swept.depositAddress, parseUnits("5", 18));
    await chain().client.mine({ blocks: 1 });
    await runEngine(db(), chain().url);
    // Recorded but never forwarded (the database is lost before the sweep).
    const stranded = await session("7");
    await pay(usd, stranded.depositAddress, parseUnits("7", 18));
    await chain().client.mine({ blocks: 1 });
    await scanNetworkStep(db(), "bsc");
    // Unpaid, but someone sent another token there; and the domain's withdrawal wallet holds tokens.
    const unpaid = await session("3");
    await pay(other, unpaid.depositAddress, parseUnits("2", 6));
    await pay(usd, merchant.withdrawalAddress as Address, parseUnits("4", 18));

    // The database is gone: a fresh, empty one.
    const empty = join(mkdtempSync(join(tmpdir(), "bscpay-recover-")), "pglite");
    const tokens = ["--token", usd, "--token", other];
    // Without --yes it lists and totals, and sends nothing (as --dry-run does).
    const dry = await admin(["recover", "--to", RESCUE, "--network", "bsc", ...tokens], empty);
    expect(dry.stderr).toBe("");
    expect(dry.code).toBe(0);
    if (process.env.SHOW_RECOVER) console.log(dry.stdout);
    const listed = dry.stdout.split("\n").filter((l) => /^ {2}(deposit address|withdrawal wallet)/.test(l));
    for (const expected of [
      `deposit address`, // (each line below names its address and amount)
      `${stranded.depositAddress}: 7 RUSD (${usd})`,
      `${unpaid.depositAddress}: 2 RSIX (${other})`,
      `withdrawal wallet of domain ${merchant.domainId} ${merchant.withdrawalAddress}: 4 RUSD (${usd})`,
    ]) {
      expect(
        listed.some((line) => line.includes(expected)),
        expected,
      ).toBe(true);
    }
    expect(listed).toHaveLength(3);
    expect(dry.stdout).not.toContain(swept.depositAddress);
    expect(dry.stdout).toContain("scanned deposit addresses 0…");
    expect(dry.stdout).toContain("total 11 RUSD");
    expect(dry.stdout).toContain("dry run: would move 3 balance(s)");
    expect(dry.stdout).toContain("then run the same command again with --yes");
    expect(await tokenBalance(chain().url, usd, RESCUE)).toBe(0n); // nothing sent without --yes

    const real = await admin(["recover", "--to", RESCUE, "--network", "bsc", ...tokens, "--yes"], empty);
    expect(real.stderr).toBe("");
    expect(real.code).toBe(0);
    expect(real.stdout).toContain("moved 3 of 3 balance(s)");
    expect(await tokenBalance(chain().url, usd, RESCUE)).toBe(parseUnits("11", 18));
    expect(await tokenBalance(chain().url, other, RESCUE)).toBe(parseUnits("2", 6));
    for (const address of [stranded.depositAddress, merchant.withdrawalAddress as Address])
      expect(await tokenBalance(chain().url, usd, address)).toBe(0n);
    expect(await tokenBalance(chain().url, other, unpaid.depositAddress)).toBe(0n);

    // Each transfer it signed is a ledger row of the database it ran on (empty before), settled by its receipt.
    const ledger = openPglite(empty);
    const rows = await ledger.db.select().from(chainTransactions);
    await ledger.close();
    const recovery = rows.filter((r) => r.kind === "recovery");
    expect(recovery.map((r) => r.status)).toEqual(["mined", "mined", "mined"]);
    expect(recovery.map((r) => r.toAddress).sort()).toEqual([getAddress(other), getAddress(usd), getAddress(usd)].sort());
    expect(
      rows
        .filter((r) => r.kind !== "recovery")
        .every((r) => r.kind === "wallet_gas" && r.walletRole === "gas_tank" && r.status === "mined"),
    ).toBe(true);

    const again = await admin(["recover", "--to", RESCUE, "--network", "bsc", ...tokens, "--yes"], empty);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("nothing to move");
    expect(await tokenBalance(chain().url, usd, RESCUE)).toBe(parseUnits("11", 18));
  });

  it("refuses bad input clearly and sends nothing", async () => {
    const lines: string[] = [];
    const run = (args: string[]) => recoverCommand(db(), args, (line) => lines.push(line));
    await expect(run(["--network", "bsc"])).rejects.toThrow("--to is required");
    await expect(run(["--to", "0x1234", "--network", "bsc"])).rejects.toThrow("--to must be an address");
    // One letter of a checksummed address changed in case: a typo the checksum catches.
    const at = [...RESCUE].findIndex((c, i) => i > 1 && /[a-f]/i.test(c));
    const mistyped =
      RESCUE.slice(0, at) +
      (RESCUE[at] === RESCUE[at]!.toLowerCase() ? RESCUE[at]!.toUpperCase() : RESCUE[at]!.toLowerCase()) +
      RESCUE.slice(at + 1);
    await expect(run(["--to", mistyped, "--network", "bsc", "--yes"])).rejects.toThrow("fails its checksum");
    await expect(run(["--to", RESCUE, "--from-index", "5", "--to-index", "2"])).rejects.toThrow(
      "--to-index must not be below --from-index",
    );
    await expect(run(["--to", RESCUE, "--from-index", "-1"])).rejects.toThrow("--from-index must be a whole number");
    await expect(run(["--to", RESCUE, "--everything"])).rejects.toThrow("unexpected argument --everything");
    await expect(run(["--to", RESCUE, "--network", "mars"])).rejects.toThrow("network mars is not configured");
    await expect(run(["--to", keyRingFor(TEST_MNEMONIC).gasTankAddress(), "--network", "bsc"])).rejects.toThrow("--to is the gas tank");
    await expect(run(["--to", keyRingFor(TEST_MNEMONIC).depositAddress(0), "--network", "bsc", "--dry-run"])).rejects.toThrow(
      "an address of the gateway itself",
    );
    await expect(run(["--to", RESCUE, "--network", "bsc", "--token", "0x00000000000000000000000000000000000000aa"])).rejects.toThrow(
      "does not answer symbol() and decimals()",
    );
    expect(lines.filter((line) => /moved|deposit address #|withdrawal wallet of/.test(line))).toEqual([]);
  });

  it("also finds tokens the operator has since disallowed, and counts every index the database handed out", async () => {
    const [usdRow] = await db().select().from(tokenCatalogue).where(eq(tokenCatalogue.symbol, "RUSD"));
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "1" },
    });
    await chain().client.waitForTransactionReceipt({
      hash: await payTo(chain().url, usdRow!.contractAddress as Address, created.body.data.depositAddress, parseUnits("1", 18)),
    });
    await db().update(tokenCatalogue).set({ enabled: false }).where(eq(tokenCatalogue.contractAddress, usdRow!.contractAddress));
    // Far beyond the scan's gap: only the database's sequence says this index was handed out.
    await db().execute(sql`select setval('deposit_index_seq', 3500)`);
    const far = keyRingFor(TEST_MNEMONIC).depositAddress(3500);
    await chain().client.waitForTransactionReceipt({
      hash: await payTo(chain().url, usdRow!.contractAddress as Address, far, parseUnits("2", 18)),
    });
    const lines: string[] = [];
    const report = await recoverFunds(db(), { network: "bsc", to: RESCUE, dryRun: true, gap: 50, print: (line) => lines.push(line) });
    expect(report.stranded.map((s) => [s.wallet.address, s.balance])).toEqual(
      expect.arrayContaining([
        [created.body.data.depositAddress, parseUnits("1", 18)],
        [far, parseUnits("2", 18)],
      ]),
    );
    expect(report.scanned.deposits[1]).toBeGreaterThanOrEqual(3500);
  });
});

describe("recover's safety catches", () => {
  it("moves BNB left on derived addresses with --include-bnb, and lists it first without --yes", async () => {
    const keys = keyRingFor(TEST_MNEMONIC);
    const dust = keys.depositAddress(42);
    await chain().client.setBalance({ address: dust, value: parseEther("0.01") });
    await chain().client.setBalance({ address: keys.sweeperOwnerAddress(), value: parseEther("0.02") });
    const lines: string[] = [];
    const run = (args: string[]) => recoverCommand(db(), args, (line) => lines.push(line));
    const before = await chain().client.getBalance({ address: RESCUE });
    expect(await run(["--to", RESCUE.toLowerCase(), "--network", "bsc", "--include-bnb", "--from-index", "40", "--to-index", "45"])).toBe(
      0,
    );
    expect(lines.join("\n")).toContain("has no checksum");
    expect(lines.join("\n")).toMatch(new RegExp(`deposit #42 ${dust}: 0\\.01 BNB`));
    expect(lines.join("\n")).toMatch(new RegExp(`sweeper_owner #0 ${keys.sweeperOwnerAddress()}: 0\\.02 BNB`));
    expect(await chain().client.getBalance({ address: RESCUE })).toBe(before);

    expect(await run(["--to", RESCUE, "--network", "bsc", "--include-bnb", "--from-index", "40", "--to-index", "45", "--yes"])).toBe(0);
    const gained = (await chain().client.getBalance({ address: RESCUE })) - before;
    // Everything but one transfer fee each, and the gas tank's own BNB (generation 0) too.
    expect(gained).toBeGreaterThan(parseEther("0.03"));
    expect(await chain().client.getBalance({ address: dust })).toBeLessThan(parseEther("0.0001"));
    expect(await chain().client.getBalance({ address: keys.sweeperOwnerAddress() })).toBeLessThan(parseEther("0.0001"));
    const rows = await db().select().from(chainTransactions).where(eq(chainTransactions.kind, "recovery"));
    expect(rows.filter((r) => r.walletRole === "sweeper_owner" || r.wallet === dust).map((r) => r.status)).toEqual(["mined", "mined"]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "refuses to send while a running service leads this database (its job runner's lock)",
    async () => {
      const { getDatabase } = await import("@/lib/db");
      const { LEADER_LOCK_ID } = await import("@/lib/ops/jobs/embedded-runner");
      expect(await (await getDatabase()).holdsLeadership(LEADER_LOCK_ID)).toBe(true);
      const run = (args: string[]) => recoverCommand(db(), args, () => {});
      await expect(run(["--to", RESCUE, "--network", "bsc", "--yes"])).rejects.toThrow(
        "a running BSC Pay service is working on this database",
      );
      // Listing stays possible.
      expect(await run(["--to", RESCUE, "--network", "bsc", "--from-index", "0", "--to-index", "2", "--dry-run"])).toBe(0);
    },
  );
});
