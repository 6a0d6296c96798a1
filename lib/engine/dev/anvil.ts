import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

/** A running anvil node (npm `@foundry-rs/anvil`), started by the app or by a test. */
export interface AnvilNode {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface AnvilOptions {
  port?: number;
  chainId?: number;
  /** Seconds between blocks; omit to mine on every transaction (fast tests). */
  blockTime?: number;
  /** Load state from this file at start and dump it there periodically and on exit. */
  stateFile?: string;
  stateIntervalSeconds?: number;
  /** The EVM rules; default prague (EIP-7702, as BSC since its Pascal fork). */
  hardfork?: "prague" | "cancun";
  /** anvil's `finalized` block is the head less two epochs: 1 makes it the head − 2, as BSC's fast finality. */
  slotsInAnEpoch?: number;
}

/** The platform binary inside the npm package, run directly so that signals reach anvil itself. */
export function anvilBinary(): string {
  const require = createRequire(join(process.cwd(), "package.json"));
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  try {
    const pkg = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
    const binary = join(dirname(pkg), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
    if (existsSync(binary)) return binary;
  } catch {
    // fall through to the wrapper
  }
  return join(process.cwd(), "node_modules", ".bin", "anvil");
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
  const port = options.port ?? (await freePort());
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--chain-id",
    String(options.chainId ?? 31337),
    "--hardfork",
    options.hardfork ?? "prague",
    "--silent",
  ];
  if (options.blockTime !== undefined) args.push("--block-time", String(options.blockTime));
  if (options.slotsInAnEpoch !== undefined) args.push("--slots-in-an-epoch", String(options.slotsInAnEpoch));
  if (options.stateFile) {
    args.push("--state", options.stateFile, "--state-interval", String(options.stateIntervalSeconds ?? 5));
  }
  const child = spawn(anvilBinary(), args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM"); // anvil dumps its state on SIGTERM
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitForRpc(url, child, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, process: child, stop };
}

async function waitForRpc(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode}): ${stderr().trim()}`);
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`anvil did not answer on ${url} within 15 s`);
}
