/**
 * Whether a network sweeps in batches (EIP-7702) right now, for the forwarder: the configuration,
 * what the chain answered of EIP-7702 (asked once per chain, kept in the database), the network's
 * batching record (batch-state.ts: refused batches, failed checks), the sweep contracts' code
 * (deployed here when missing: sweep-deploy.ts) and the owner's settings (a paused sweeper, or one
 * whose operator is not this process's gas tank, sweeps nothing: forwards go the classic way).
 * What this process keeps in memory is only a cache of chain reads (the contracts' code and the
 * owner's settings, for SWEEPER_CHECK_MS); every decision comes from the database.
 */
import { type Address, getAddress } from "viem";
import { getConfig } from "../../../base/config";
import { log } from "../../../base/log";
import type { Db } from "../../../db";
import { loadGasTankGeneration } from "../../chain/gas-tank";
import { networkConfig, publicClientFor } from "../../chain/networks";
import { errorText } from "../../chain/rpc-errors";
import { batchSweeperAbi, type SweepContracts, serviceSweepContracts } from "../../chain/sweep-addresses";
import { serviceAddresses } from "../../chain/wallet-addresses";
import { afterFailedCheck, classicAfterRefusals } from "./batch-state";
import { chainFingerprint, readNetworkBatching, recordEip7702, recordNetworkFact } from "./network-batching";
import { deployContracts, deployedCode, probeEip7702 } from "./sweep-deploy";
import { settleOpenTankTransactions } from "./tank-transactions";

/** How long the sweeper's code and owner settings (paused, operator) read from the chain are trusted. */
export const SWEEPER_CHECK_MS = 15_000;

// Their addresses and ABIs are chain-level facts (lib/engine/chain/sweep-addresses.ts); kept importable from here.
export {
  batchSweeperAbi,
  CREATE2_DEPLOYER,
  depositDelegateAbi,
  type SweepContracts,
  serviceSweepContracts,
  sweepContractsFor,
} from "../../chain/sweep-addresses";

export type BatchSupport =
  | { state: "ready"; contracts: SweepContracts }
  /** Sweep this network the classic way (SWEEP_MODE=classic, or the chain cannot batch). */
  | { state: "classic"; reason: string }
  /** Batching will be possible shortly (contracts being deployed, or the node did not answer). */
  | { state: "wait"; reason: string; tankLow?: boolean };

/** The contracts found deployed, and what the owner's settings said then (null: batches may go), per chain and delegate. */
const CACHE_KEY = Symbol.for("bsc-pay.sweeper-reads");
type SweeperReads = Map<string, { at: number; control: BatchSupport | null }>;
function sweeperReads(): SweeperReads {
  const holder = globalThis as { [CACHE_KEY]?: SweeperReads };
  holder[CACHE_KEY] ??= new Map();
  return holder[CACHE_KEY];
}

/** Tests: a fresh process (nothing read from the chain is remembered; the database still is). */
export function forgetBatchSupport(): void {
  sweeperReads().clear();
}

export type SweepMode = "batched" | "classic" | "unknown";

/** What is known without asking the chain (health, status): the configuration and the network's record. */
export async function knownSweepMode(db: Db, network: string): Promise<SweepMode> {
  if (getConfig().sweep.mode === "classic") return "classic";
  if (!networkConfig(network)) return "unknown";
  const record = await readNetworkBatching(db, network);
  if (record.eip7702 === null) return "unknown";
  return record.eip7702 === "supported" && classicAfterRefusals(record) === null ? "batched" : "classic";
}

/** Start-up: asks each chain once whether it runs EIP-7702 (a chain that does not answer is asked again when sweeping). */
export async function checkBatchSweeping(db: Db, networks: string[]): Promise<void> {
  if (getConfig().sweep.mode === "classic") return;
  await Promise.all(
    networks.map((network) =>
      learnSupport(db, network).catch((error: unknown) =>
        log.warn({ network, err: errorText(error).slice(0, 200) }, "could not check EIP-7702 support yet"),
      ),
    ),
  );
}

async function learnSupport(db: Db, network: string): Promise<"supported" | "unsupported"> {
  const known = (await readNetworkBatching(db, network)).eip7702;
  if (known) return known;
  // A node that does not answer throws here: the forward backs off and asks again.
  const support = await probeEip7702(network);
  await recordEip7702(db, network, support);
  log.info(
    { network, eip7702: support },
    support === "supported" ? "batched sweeps (EIP-7702) available" : "network without EIP-7702: classic sweeps",
  );
  return support;
}

export async function batchSweepSupport(db: Db, network: string): Promise<BatchSupport> {
  if (getConfig().sweep.mode === "classic") return { state: "classic", reason: "SWEEP_MODE=classic" };
  if (!networkConfig(network)) return { state: "classic", reason: `network ${network} is not configured` };
  const record = await readNetworkBatching(db, network);
  const refused = classicAfterRefusals(record);
  if (refused) return { state: "classic", reason: refused };
  const contracts = serviceSweepContracts();
  const readsKey = `${chainFingerprint(network)}:${contracts.delegate}`;
  const known = sweeperReads().get(readsKey);
  if (known && Date.now() - known.at < SWEEPER_CHECK_MS) return known.control ?? { state: "ready", contracts };
  let codes: { sweeper: boolean; delegate: boolean };
  let control: BatchSupport | null = null;
  try {
    const support = await learnSupport(db, network);
    if (support === "unsupported") return { state: "classic", reason: `${network} does not run EIP-7702 (or has no CREATE2 deployer)` };
    codes = known ? { sweeper: true, delegate: true } : await deployedCode(network, contracts);
    if (codes.sweeper && codes.delegate) {
      if (!known) await settleOpenTankTransactions(db, network);
      control = await sweeperControl(db, network, contracts);
    }
  } catch (error) {
    const failed = await recordNetworkFact(db, network, { kind: "check-failed", reason: errorText(error).slice(0, 200) });
    return afterFailedCheck(failed);
  }
  if (record.failedChecks > 0) await recordNetworkFact(db, network, { kind: "check-passed" });
  if (codes.sweeper && codes.delegate) {
    // Both answers are kept a while: a paused sweeper is not asked again on every forward.
    sweeperReads().set(readsKey, { at: Date.now(), control });
    return control ?? { state: "ready", contracts };
  }
  return deployContracts(db, network, contracts, codes);
}

/** The operator looked at the batches a node refused: the network batches again (npm run admin -- sweeper retry-batches). */
export async function retryBatches(db: Db, network: string): Promise<void> {
  await recordNetworkFact(db, network, { kind: "operator-reset" });
}

/**
 * The owner's say (read from the chain, every SWEEPER_CHECK_MS at most): a paused sweeper, or one
 * whose operator is not this process's gas tank, sweeps nothing — forwards go the classic way
 * meanwhile. An operator that moved to a later tank generation is adopted from the database.
 */
async function sweeperControl(db: Db, network: string, contracts: SweepContracts): Promise<BatchSupport | null> {
  const { paused, operator } = await readSweeperControl(network, contracts.sweeper);
  if (paused) return { state: "classic", reason: "the BatchSweeper is paused by its owner (npm run admin -- sweeper resume)" };
  const keys = serviceAddresses();
  if (operator !== keys.gasTank()) await loadGasTankGeneration(db);
  if (operator !== keys.gasTank()) {
    return {
      state: "classic",
      reason: `the BatchSweeper's operator is ${operator}, not this gas tank ${keys.gasTank()} (npm run admin -- sweeper status)`,
    };
  }
  return null;
}

export async function readSweeperControl(
  network: string,
  sweeper: Address,
): Promise<{ paused: boolean; operator: Address; owner: Address }> {
  const client = publicClientFor(network);
  const [paused, operator, owner] = await Promise.all([
    client.readContract({ address: sweeper, abi: batchSweeperAbi, functionName: "paused" }) as Promise<boolean>,
    client.readContract({ address: sweeper, abi: batchSweeperAbi, functionName: "operator" }) as Promise<Address>,
    client.readContract({ address: sweeper, abi: batchSweeperAbi, functionName: "owner" }) as Promise<Address>,
  ]);
  return { paused, operator: getAddress(operator), owner: getAddress(owner) };
}
