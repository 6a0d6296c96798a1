import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Config } from "../../base/config";
import { log } from "../../base/log";
import { setLocalRpcUrl } from "../chain/networks";
import { type AnvilNode, isPortFree, startAnvil } from "./anvil";

/**
 * The embedded network `local`: an anvil child process (BSC's pace: LOCAL_CHAIN_PACE; Prague, chain
 * 31337) whose state lives in `<stateDir>/anvil-state.json`, or an external node given by
 * LOCAL_RPC_URL. Returns the RPC URL.
 */
/**
 * BSC mainnet since the Fermi hard fork (January 2026): a block every 0.45 s, and fast finality's
 * `finalized` block two behind the head (anvil's is the head less two epochs, so one-block epochs).
 * Anything counted in blocks on the embedded chain then lasts as long as on mainnet.
 */
export const LOCAL_CHAIN_PACE = { blockTime: 0.45, slotsInAnEpoch: 1 } as const;

export async function startLocalChain(config: Config): Promise<string> {
  const local = config.localChain;
  const network = config.networks.find((n) => n.name === "local");
  if (!local || !network) throw new Error("the local chain is not configured");
  // biome-ignore lint/style/noNonNullAssertion: parseConfig chooses "external" only when LOCAL_RPC_URL lists a URL, and those URLs are this network's rpcUrls
  if (local.mode === "external") return network.rpcUrls[0]!;

  const stateDir = resolve(/*turbopackIgnore: true*/ local.stateDir);
  mkdirSync(stateDir, { recursive: true });
  const pidFile = join(stateDir, "anvil.pid");
  await stopOrphan(pidFile);
  const port = (await isPortFree(local.port)) ? local.port : undefined;
  const node = await startAnvil({
    port,
    ...LOCAL_CHAIN_PACE,
    chainId: network.chainId,
    stateFile: join(stateDir, "anvil-state.json"),
    stateIntervalSeconds: 2,
  });
  writeFileSync(pidFile, String(node.process.pid));
  writeFileSync(join(stateDir, "anvil.url"), node.url);
  stopWithThisProcess(node, pidFile);
  setLocalRpcUrl(node.url);
  log.info({ url: node.url }, "embedded anvil started as network local");
  return node.url;
}

/**
 * For operator commands: the embedded anvil of a running server if there is one (its pid and URL
 * files say so), else one started here on the saved state, stopped when the command exits.
 */
export async function connectLocalChain(config: Config): Promise<string | null> {
  const local = config.localChain;
  if (!local) return null;
  if (local.mode === "external") return config.networks.find((n) => n.name === "local")?.rpcUrls[0] ?? null;
  const stateDir = resolve(/*turbopackIgnore: true*/ local.stateDir);
  try {
    const pid = Number(readFileSync(join(stateDir, "anvil.pid"), "utf8"));
    const url = readFileSync(join(stateDir, "anvil.url"), "utf8").trim();
    if (pid && isAnvil(pid) && url) {
      setLocalRpcUrl(url);
      return url;
    }
  } catch {
    // no running server anvil: start one below
  }
  return startLocalChain(config);
}

/** An anvil left behind by a killed server holds our state file (and maybe the port): stop it. */
async function stopOrphan(pidFile: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, "utf8"));
  } catch {
    return;
  }
  rmSync(pidFile, { force: true });
  if (!pid || !isAnvil(pid)) return;
  process.kill(pid, "SIGTERM");
  for (let i = 0; i < 100 && isAnvil(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (isAnvil(pid)) process.kill(pid, "SIGKILL");
}

function isAnvil(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("anvil");
  } catch {
    return false;
  }
}

function stopWithThisProcess(node: AnvilNode, pidFile: string): void {
  const stop = () => {
    if (node.process.exitCode === null) node.process.kill("SIGTERM");
    rmSync(pidFile, { force: true });
  };
  process.once("exit", stop);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stop();
      process.exit(0);
    });
  }
}
