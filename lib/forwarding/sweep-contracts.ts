import { and, eq, inArray, sql } from "drizzle-orm";
import { type Address, concat, getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { loadGasTankGeneration } from "../chain/gas-tank";
import { keyRingFor } from "../chain/keys";
import { chainOf, networkConfig, publicClientFor, rpcUrlsOf } from "../chain/networks";
import { allocateNonce } from "../chain/nonces";
import { classifyRpcError, errorText } from "../chain/rpc-errors";
import { batchSweeperAbi, CREATE2_DEPLOYER, SALT, type SweepContracts, serviceSweepContracts } from "../chain/sweep-addresses";
import { getConfig } from "../config";
import type { Db } from "../db";
import { type ChainTransaction, sweepBatches } from "../db/schema";
import { broadcastRecorded } from "../ledger/broadcast";
import { log } from "../log";
import {
  forgetRefusedBatches,
  MAX_REFUSED_BATCHES,
  recordTankTransaction,
  refusedBatches,
  settleOpenTankTransactions,
} from "./tank-transactions";

/**
 * The contracts of batched sweeping (EIP-7702) and whether a network can use them. Both are
 * deployed by the gas tank through the deterministic CREATE2 deployer that BSC and anvil carry,
 * so their addresses follow from the keys and the per-sweep gas allowance alone:
 * BatchSweeper(owner = the sweeper owner key, first operator = the first gas tank, gasPerSweep)
 * and DepositDelegate(sweeper). The owner may pause the sweeper or hand the operator role to a
 * later gas tank; while it is paused, or run by a tank this process does not hold, deposits are
 * swept the classic way.
 * The deployments are recorded signed before they are broadcast, like every tank transaction.
 */
export const DEPLOY_KINDS = ["deploy_sweeper", "deploy_delegate"] as const;
/** Deployments that reverted this many times: the network stays classic (the operator should look). */
const MAX_FAILED_DEPLOYMENTS = 2;
/** How long the sweeper's owner settings (paused, operator) read from the chain are trusted. */
export const SWEEPER_CHECK_MS = 15_000;
/** Checks (EIP-7702 probe, contract code) that failed in a row before forwards go classic meanwhile. */
const MAX_FAILED_CHECKS = 3;

// Their addresses and ABIs are chain-level facts (lib/chain/sweep-addresses.ts); kept importable from here.
export {
  batchSweeperAbi,
  CREATE2_DEPLOYER,
  depositDelegateAbi,
  type SweepContracts,
  serviceSweepContracts,
  sweepContractsFor,
} from "../chain/sweep-addresses";

export type BatchSupport =
  | { state: "ready"; contracts: SweepContracts }
  /** Sweep this network the classic way (SWEEP_MODE=classic, or the chain cannot batch). */
  | { state: "classic"; reason: string }
  /** Batching will be possible shortly (contracts being deployed, or the node did not answer). */
  | { state: "wait"; reason: string; tankLow?: boolean };

const RUNTIME_KEY = Symbol.for("bsc-pay.batch-support");
type Runtime = {
  support: Map<string, "supported" | "unsupported">;
  /** Contracts found deployed, and what the owner's settings said then (null: batches may go). */
  deployed: Map<string, { at: number; control: BatchSupport | null }>;
  failedChecks: Map<string, number>;
};
function runtime(): Runtime {
  const holder = globalThis as { [RUNTIME_KEY]?: Runtime };
  holder[RUNTIME_KEY] ??= { support: new Map(), deployed: new Map(), failedChecks: new Map() };
  return holder[RUNTIME_KEY];
}

/** Tests: forget what was learnt about the networks (a fresh chain). */
export function forgetBatchSupport(): void {
  runtime().support.clear();
  runtime().deployed.clear();
  runtime().failedChecks.clear();
  forgetRefusedBatches();
}

export type SweepMode = "batched" | "classic" | "unknown";

/** What is known without asking the chain (health, status): the configuration and the start-up check. */
export function knownSweepMode(network: string): SweepMode {
  if (getConfig().sweep.mode === "classic") return "classic";
  const support = runtime().support.get(supportKey(network));
  if (support === "supported" && refusedBatches(network) >= MAX_REFUSED_BATCHES) return "classic";
  return support === undefined ? "unknown" : support === "supported" ? "batched" : "classic";
}

/** Start-up: asks each chain once whether it runs EIP-7702 (a chain that does not answer is asked again when sweeping). */
export async function checkBatchSweeping(networks: string[]): Promise<void> {
  if (getConfig().sweep.mode === "classic") return;
  await Promise.all(
    networks.map((network) =>
      learnSupport(network).catch((error: unknown) =>
        log.warn({ network, err: errorText(error).slice(0, 200) }, "could not check EIP-7702 support yet"),
      ),
    ),
  );
}

function supportKey(network: string): string {
  const chain = networkConfig(network);
  return chain ? `${network}:${chain.chainId}:${rpcUrlsOf(chain).join(",")}` : network;
}

async function learnSupport(network: string): Promise<"supported" | "unsupported"> {
  const key = supportKey(network);
  const known = runtime().support.get(key);
  if (known) return known;
  // A node that does not answer throws here: the forward backs off and asks again.
  const support = await probeEip7702(network);
  runtime().support.set(key, support);
  log.info(
    { network, eip7702: support },
    support === "supported" ? "batched sweeps (EIP-7702) available" : "network without EIP-7702: classic sweeps",
  );
  return support;
}

export async function batchSweepSupport(db: Db, network: string): Promise<BatchSupport> {
  if (getConfig().sweep.mode === "classic") return { state: "classic", reason: "SWEEP_MODE=classic" };
  const chain = networkConfig(network);
  if (!chain) return { state: "classic", reason: `network ${network} is not configured` };
  if (refusedBatches(network) >= MAX_REFUSED_BATCHES) {
    return { state: "classic", reason: `the node did not mine ${refusedBatches(network)} sweep batches; classic sweeps until a restart` };
  }
  const contracts = serviceSweepContracts();
  const deployedKey = `${supportKey(network)}:${contracts.delegate}`;
  const known = runtime().deployed.get(deployedKey);
  if (known && Date.now() - known.at < SWEEPER_CHECK_MS) return known.control ?? { state: "ready", contracts };
  let codes: { sweeper: boolean; delegate: boolean };
  let control: BatchSupport | null = null;
  try {
    const support = await learnSupport(network);
    if (support === "unsupported") return { state: "classic", reason: `${network} does not run EIP-7702 (or has no CREATE2 deployer)` };
    codes = known ? { sweeper: true, delegate: true } : await deployedCode(network, contracts);
    if (codes.sweeper && codes.delegate) {
      if (!known) await settleOpenTankTransactions(db, network);
      control = await sweeperControl(db, network, contracts);
    }
    runtime().failedChecks.delete(network);
  } catch (error) {
    // A node that cannot answer these is no reason to hold a forward: wait a little, then sweep classic.
    const failures = (runtime().failedChecks.get(network) ?? 0) + 1;
    runtime().failedChecks.set(network, failures);
    const reason = `could not check batched sweeping: ${errorText(error).slice(0, 200)}`;
    return failures >= MAX_FAILED_CHECKS ? { state: "classic", reason } : { state: "wait", reason };
  }
  if (codes.sweeper && codes.delegate) {
    // Both answers are kept a while: a paused sweeper is not asked again on every forward.
    runtime().deployed.set(deployedKey, { at: Date.now(), control });
    return control ?? { state: "ready", contracts };
  }
  return deployContracts(db, network, contracts, codes);
}

/**
 * The owner's say (read from the chain, every SWEEPER_CHECK_MS at most): a paused sweeper, or one
 * whose operator is not this process's gas tank, sweeps nothing — forwards go the classic way
 * meanwhile. An operator that moved to a later tank generation is adopted from the database.
 */
async function sweeperControl(db: Db, network: string, contracts: SweepContracts): Promise<BatchSupport | null> {
  const { paused, operator } = await readSweeperControl(network, contracts.sweeper);
  if (paused) return { state: "classic", reason: "the BatchSweeper is paused by its owner (npm run admin -- sweeper resume)" };
  const keys = keyRingFor(getConfig().masterMnemonic);
  if (operator !== keys.gasTankAddress()) await loadGasTankGeneration(db);
  if (operator !== keys.gasTankAddress()) {
    return {
      state: "classic",
      reason: `the BatchSweeper's operator is ${operator}, not this gas tank ${keys.gasTankAddress()} (npm run admin -- sweeper status)`,
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

async function deployedCode(network: string, contracts: SweepContracts): Promise<{ sweeper: boolean; delegate: boolean }> {
  const client = publicClientFor(network);
  const [sweeper, delegate] = await Promise.all([
    client.getCode({ address: contracts.sweeper }),
    client.getCode({ address: contracts.delegate }),
  ]);
  return { sweeper: Boolean(sweeper && sweeper !== "0x"), delegate: Boolean(delegate && delegate !== "0x") };
}

/**
 * Start-up check of a network: with EIP-7702, a throwaway account delegated (in an eth_call only)
 * to the CREATE2 deployer runs the deployer's code and answers with the address it would create;
 * without it, a call to an account without code answers nothing.
 */
async function probeEip7702(network: string): Promise<"supported" | "unsupported"> {
  const client = publicClientFor(network);
  const deployer = await client.getCode({ address: CREATE2_DEPLOYER });
  if (!deployer || deployer === "0x") return "unsupported";
  const probe = privateKeyToAccount(generatePrivateKey());
  const authorization = await probe.signAuthorization({ address: CREATE2_DEPLOYER, chainId: networkConfig(network)!.chainId, nonce: 0 });
  try {
    const { data } = await client.call({
      to: probe.address,
      data: concat([SALT, "0x00"]),
      authorizationList: [authorization],
      gas: 1_000_000n,
    });
    return data && data.length === 42 ? "supported" : "unsupported";
  } catch (error) {
    if (classifyRpcError(error) === "rejected") return "unsupported";
    throw error;
  }
}

function openDeployments(db: Db, network: string) {
  return db
    .select({ id: sweepBatches.id })
    .from(sweepBatches)
    .where(and(eq(sweepBatches.network, network), inArray(sweepBatches.kind, [...DEPLOY_KINDS]), eq(sweepBatches.status, "sent")));
}

async function deployContracts(
  db: Db,
  network: string,
  contracts: SweepContracts,
  present: { sweeper: boolean; delegate: boolean },
): Promise<BatchSupport> {
  if ((await openDeployments(db, network)).length > 0) {
    await settleOpenTankTransactions(db, network);
    return { state: "wait", reason: "the sweep contracts are being deployed" };
  }
  // Mined, yet the code is missing (a reorg, or a deployment replaced): deploy what is missing again,
  // but not without end: a deployment that reverts or is never mined (its nonce filled) counts.
  const [failed] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sweepBatches)
    .where(
      and(
        eq(sweepBatches.network, network),
        inArray(sweepBatches.kind, [...DEPLOY_KINDS]),
        inArray(sweepBatches.status, ["reverted", "replaced"]),
      ),
    );
  if ((failed?.n ?? 0) >= MAX_FAILED_DEPLOYMENTS)
    return { state: "classic", reason: "deploying the sweep contracts failed; classic sweeps until an operator looks" };

  const client = publicClientFor(network);
  const keys = keyRingFor(getConfig().masterMnemonic);
  const tank = keys.gasTankAddress();
  const wanted = [
    ...(present.sweeper ? [] : [{ kind: "deploy_sweeper" as const, data: concat([SALT, contracts.sweeperInit]) }]),
    ...(present.delegate ? [] : [{ kind: "deploy_delegate" as const, data: concat([SALT, contracts.delegateInit]) }]),
  ];
  const [gasPrice, tankBalance, tankCount, ...estimates] = await Promise.all([
    client.getGasPrice(),
    client.getBalance({ address: tank }),
    client.getTransactionCount({ address: tank }),
    ...wanted.map((w) => client.estimateGas({ account: tank, to: CREATE2_DEPLOYER, data: w.data })),
  ]);
  const limits = estimates.map((e) => (e * 13n) / 10n);
  const cost = limits.reduce((sum, l) => sum + l * gasPrice, 0n);
  if (tankBalance < cost)
    return {
      state: "wait",
      reason: `gas tank ${tank} holds ${tankBalance} wei, deploying the sweep contracts needs ${cost}`,
      tankLow: true,
    };
  const chain = chainOf(networkConfig(network)!);
  const signer = keys.gasTankSigner();
  const signed = await db.transaction(async (tx) => {
    // One deployment at a time per network, across workers and processes.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`bsc-pay:deploy-sweep:${network}`}))`);
    if ((await openDeployments(tx, network)).length > 0) return [];
    // Another process may have deployed them since we looked.
    const now = await deployedCode(network, contracts);
    const rows: ChainTransaction[] = [];
    for (const [i, w] of wanted.entries()) {
      if (now[w.kind === "deploy_sweeper" ? "sweeper" : "delegate"]) continue;
      const nonce = await allocateNonce(tx, network, tank, tankCount);
      const raw = await signer.signTransaction({
        chain,
        chainId: chain.id,
        type: "legacy",
        to: CREATE2_DEPLOYER,
        data: w.data,
        gas: limits[i]!,
        gasPrice,
        nonce,
      });
      const ledgerRow = await recordTankTransaction(tx, network, tank, "deploy", raw);
      await tx.insert(sweepBatches).values({
        network,
        kind: w.kind,
        fromAddress: tank,
        nonce,
        gasLimit: limits[i]!,
        gasPrice,
        txHash: ledgerRow.txHash,
        chainTxId: ledgerRow.id,
      });
      rows.push(ledgerRow);
    }
    return rows;
  });
  for (const row of signed) await broadcastRecorded(db, row);
  if (signed.length > 0)
    log.info({ network, sweeper: contracts.sweeper, delegate: contracts.delegate }, "deploying the batched-sweep contracts");
  return { state: "wait", reason: "the sweep contracts are being deployed" };
}
