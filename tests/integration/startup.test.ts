import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "@/lib/engine/dev/anvil";
import { useTestChain } from "../helpers/chain";

const chain = useTestChain({ chainId: 56 });
const devChain = useTestChain(); // anvil's own 31337
const MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow";

function runStartup(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/start-process.ts"], {
      env: { PATH: process.env.PATH!, HOME: process.env.HOME!, NODE_ENV: "production", LOG_LEVEL: "silent", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("process start-up", () => {
  it("stops with one line naming MASTER_MNEMONIC when a production network has none", async () => {
    const result = await runStartup({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "0123456789abcdef0123" });
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toEqual([
      "bsc-pay: cannot start: Invalid configuration: MASTER_MNEMONIC is required when BSC_RPC_URL or BSC_TESTNET_RPC_URL is set",
    ]);
    expect(result.stdout).not.toContain("started");
  });

  it("stops with one line naming DATABASE_URL when it is malformed or unreachable, without printing it", async () => {
    const malformed = await runStartup({ DATABASE_URL: "mysql://root:hunter2@db/x" });
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr.trim().split("\n")).toHaveLength(1);
    expect(malformed.stderr).toContain("DATABASE_URL must be a postgres:// or postgresql:// URL");
    expect(malformed.stderr).not.toContain("hunter2");

    const unreachable = await runStartup({ DATABASE_URL: "postgres://user:hunter2@127.0.0.1:1/nowhere", LOCAL_CHAIN: "off" });
    expect(unreachable.code).not.toBe(0);
    expect(unreachable.stderr.trim().split("\n")).toHaveLength(1);
    expect(unreachable.stderr).toMatch(/^bsc-pay: cannot start: DATABASE_URL: cannot open and migrate the database/);
    expect(unreachable.stderr).not.toContain("hunter2");
  });

  it("starts on an empty embedded database against a configured chain", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bscpay-start-"));
    const result = await runStartup({
      PGLITE_DIR: join(dir, "pglite"),
      BSC_RPC_URL: chain().url,
      MASTER_MNEMONIC: MNEMONIC,
      NEXTAUTH_SECRET: "0123456789abcdef0123",
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe("started");
  });

  it("with the embedded chain, says it is ready last: after the demo merchant's block, once the jobs run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bscpay-start-"));
    const result = await runStartup({
      PGLITE_DIR: join(dir, "pglite"),
      LOCAL_CHAIN: "anvil",
      LOCAL_CHAIN_PORT: String(await freePort()),
      LOCAL_CHAIN_STATE_DIR: dir,
      NEXTAUTH_SECRET: "0123456789abcdef0123",
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("started");
    expect(lines.at(-2)).toBe(
      `BSC Pay is ready at http://localhost:3000: database, local chain and jobs are up (the demo merchant's sign-in: ${dir}/demo-merchant.txt)`,
    );
    const demoBlock = result.stdout.indexOf("BSC Pay demo merchant (shown once");
    expect(demoBlock).toBeGreaterThan(-1);
    expect(demoBlock).toBeLessThan(result.stdout.indexOf("BSC Pay is ready"));
  });

  it("refuses a development chain (31337) behind BSC_RPC_URL, naming the variable and the entry, even as a fallback URL", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bscpay-start-"));
    const result = await runStartup({
      PGLITE_DIR: join(dir, "pglite"),
      BSC_RPC_URL: `${chain().url},${devChain().url}`,
      MASTER_MNEMONIC: MNEMONIC,
      NEXTAUTH_SECRET: "0123456789abcdef0123",
    });
    expect(result.code).not.toBe(0);
    expect(result.stdout).not.toContain("started");
    expect(result.stderr).toContain("BSC_RPC_URL (entry 2, 127.0.0.1:");
    expect(result.stderr).toContain("is a development chain (id 31337)");
  });
});
