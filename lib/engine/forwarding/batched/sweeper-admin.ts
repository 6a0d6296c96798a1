/**
 * The BatchSweeper owner's three moves (`npm run admin -- sweeper …`): pause it, resume it, and
 * hand the operator role to the next gas tank generation after a tank key leaked. The owner key
 * (m/44'/60'/3'/0/0) signs these and nothing else; each transaction is a ledger row before it is
 * sent, like every transaction the service signs. The owner's gas comes from the gas tank when it
 * can pay, else the command says which address to fund.
 */
import { type Address, encodeFunctionData, formatEther, type Hex } from "viem";
import { AppError } from "../../../base/errors";
import type { Db } from "../../../db";
import type { ChainTransaction } from "../../../db/schema/engine";
import { signingGasPrice } from "../../chain/gas-price";
import { loadGasTankGeneration, MAX_GAS_TANK_GENERATIONS, saveGasTankGeneration } from "../../chain/gas-tank";
import { listNetworks, publicClientFor } from "../../chain/networks";
import { serviceAddresses } from "../../chain/wallet-addresses";
import { broadcastRecorded } from "../../ledger/broadcast";
import { ensureGasBalance } from "../../ledger/gas-top-up";
import { rereadsPending, settleNonce } from "../../ledger/settle";
import { signAndRecord } from "../../ledger/signing";
import { classicAfterRefusals } from "./batch-state";
import { batchSweeperAbi, forgetBatchSupport, readSweeperControl, retryBatches, serviceSweepContracts } from "./batch-support";
import { readNetworkBatching } from "./network-batching";

const OWNER_CALL_GAS = 80_000n;
const WAIT_MS = 60_000;

export interface SweeperState {
  network: string;
  sweeper: Address;
  delegate: Address;
  deployed: boolean;
  owner: Address;
  operator: Address | null;
  paused: boolean | null;
  gasTank: Address;
  tankGeneration: number;
  ownerBalance: bigint;
  /** Why the network's record sends it the classic way (refused batches), if it does. */
  classicReason: string | null;
}

/** Networks with a chain behind them; `only` narrows to one (an unknown name is refused). */
function networksFor(only?: string): string[] {
  const names = listNetworks().map((n) => n.name);
  if (only === undefined) return names;
  if (!names.includes(only as never)) throw new AppError("VALIDATION_ERROR", `network "${only}" is not configured (${names.join(", ")})`);
  return [only];
}

export async function sweeperStatus(db: Db, only?: string): Promise<SweeperState[]> {
  const generation = await loadGasTankGeneration(db);
  const keys = serviceAddresses();
  const contracts = serviceSweepContracts();
  return Promise.all(
    networksFor(only).map(async (network) => {
      const client = publicClientFor(network);
      const [code, ownerBalance] = await Promise.all([
        client.getCode({ address: contracts.sweeper }),
        client.getBalance({ address: keys.sweeperOwner() }),
      ]);
      const deployed = Boolean(code && code !== "0x");
      const control = deployed ? await readSweeperControl(network, contracts.sweeper) : null;
      const classicReason = classicAfterRefusals(await readNetworkBatching(db, network));
      return {
        network,
        sweeper: contracts.sweeper,
        delegate: contracts.delegate,
        deployed,
        owner: control?.owner ?? keys.sweeperOwner(),
        operator: control?.operator ?? null,
        paused: control?.paused ?? null,
        gasTank: keys.gasTank(),
        tankGeneration: generation,
        ownerBalance,
        classicReason,
      };
    }),
  );
}

export function describeSweeper(s: SweeperState): string[] {
  if (!s.deployed) return [`${s.network}: BatchSweeper ${s.sweeper} not deployed yet (deployed by the first batched sweep)`];
  const operatorNote =
    s.operator === s.gasTank
      ? "this service's gas tank"
      : "NOT this service's gas tank: batches are off, deposits are swept the classic way";
  return [
    `${s.network}: BatchSweeper ${s.sweeper}${s.paused ? " — PAUSED (deposits are swept the classic way)" : ""}`,
    `  owner     ${s.owner} (holds ${formatEther(s.ownerBalance)} BNB for its gas)`,
    `  operator  ${s.operator} (${operatorNote})`,
    `  gas tank  ${s.gasTank} (generation ${s.tankGeneration})`,
    `  delegate  ${s.delegate}`,
    ...(s.classicReason ? [`  batches   off: ${s.classicReason}`] : []),
  ];
}

/** The operator looked at the batches a node refused (npm run admin -- sweeper retry-batches): the networks batch again. */
export async function retryRefusedBatches(db: Db, only?: string): Promise<string[]> {
  const lines: string[] = [];
  for (const network of networksFor(only)) {
    const before = await readNetworkBatching(db, network);
    await retryBatches(db, network);
    lines.push(
      before.refusedBatches > 0
        ? `${network}: batches again (${before.refusedBatches} refused batches forgotten)`
        : `${network}: no refused batches; nothing to do`,
    );
  }
  return lines;
}

export async function setSweeperPaused(db: Db, paused: boolean, only?: string): Promise<string[]> {
  const lines: string[] = [];
  for (const s of await sweeperStatus(db, only)) {
    if (!s.deployed) {
      lines.push(`${s.network}: nothing to ${paused ? "pause" : "resume"}: the BatchSweeper is not deployed`);
      continue;
    }
    if (s.paused === paused) {
      lines.push(`${s.network}: already ${paused ? "paused" : "running"}`);
      continue;
    }
    const txHash = await sendOwnerCall(
      db,
      s.network,
      s.sweeper,
      encodeFunctionData({ abi: batchSweeperAbi, functionName: "setPaused", args: [paused] }),
    );
    lines.push(`${s.network}: BatchSweeper ${paused ? "paused" : "resumed"} (${txHash})`);
  }
  forgetBatchSupport();
  return lines;
}

/**
 * Moves the operator role, on every network where the sweeper is deployed, to the next gas tank
 * generation, then makes that tank the service's (every process adopts it from the database).
 * Fund the new tank afterwards: the old one's key is assumed leaked.
 */
export async function rotateSweeperOperator(db: Db): Promise<string[]> {
  const current = await loadGasTankGeneration(db);
  const next = current + 1;
  if (next >= MAX_GAS_TANK_GENERATIONS)
    throw new AppError(
      "VALIDATION_ERROR",
      `the gas tank has been rotated ${current} times; recovery looks at ${MAX_GAS_TANK_GENERATIONS} generations only`,
    );
  const keys = serviceAddresses();
  const [oldTank, newTank] = [keys.gasTank(current), keys.gasTank(next)];
  const lines: string[] = [];
  for (const s of await sweeperStatus(db)) {
    if (!s.deployed) {
      lines.push(
        `${s.network}: the BatchSweeper is not deployed yet; it will be deployed with its first operator and follow the owner from there`,
      );
      continue;
    }
    if (s.operator === newTank) {
      lines.push(`${s.network}: the operator is already ${newTank}`);
      continue;
    }
    const txHash = await sendOwnerCall(
      db,
      s.network,
      s.sweeper,
      encodeFunctionData({ abi: batchSweeperAbi, functionName: "setOperator", args: [newTank] }),
    );
    lines.push(`${s.network}: operator ${s.operator} → ${newTank} (${txHash})`);
  }
  await saveGasTankGeneration(db, next);
  forgetBatchSupport();
  lines.push(`the gas tank is now ${newTank} (generation ${next}); ${oldTank} no longer signs for the service.`);
  lines.push(`fund ${newTank} with BNB on each network; move what is left on ${oldTank} if its key is still yours alone.`);
  return lines;
}

/** One owner transaction: recorded, sent, and waited for until mined (or refused: the command says so). */
async function sendOwnerCall(db: Db, network: string, to: Address, data: Hex): Promise<Hex> {
  const ownerWallet = serviceAddresses().wallet("sweeper_owner", 0);
  const owner = ownerWallet.address;
  const client = publicClientFor(network);
  const [gasPrice, balance, count] = await Promise.all([
    signingGasPrice(network),
    client.getBalance({ address: owner }),
    client.getTransactionCount({ address: owner }),
  ]);
  const cost = OWNER_CALL_GAS * gasPrice;
  if (balance < cost) {
    await ensureGasBalance(db, network, owner, cost).catch((error: unknown) => {
      throw new AppError(
        "BLOCKCHAIN_ERROR",
        `the sweeper owner ${owner} needs ${formatEther(cost - balance)} BNB for gas and the gas tank could not send it (${error instanceof Error ? error.message : String(error)}); fund ${owner} and run the command again`,
      );
    });
  }
  const row = await db.transaction((tx) =>
    signAndRecord(tx, {
      network,
      wallet: ownerWallet,
      kind: "sweeper_admin",
      chainCount: count,
      transaction: { type: "legacy", to, data, gas: OWNER_CALL_GAS, gasPrice },
    }),
  );
  await broadcastRecorded(db, row);
  return waitForOwnerCall(db, row);
}

/**
 * Waits until the owner's transaction is mined. A nonce judged taken by a transaction the service
 * did not sign is not final while its receipts are still read again (a receipts node behind may
 * have hidden ours): the command says so and stops, rather than invite the operator to sign again.
 */
export async function waitForOwnerCall(db: Db, row: ChainTransaction): Promise<Hex> {
  const network = row.network;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const outcome = await settleNonce(db, row);
    if (outcome.state === "settled") {
      if (outcome.winner.status === "mined" && outcome.winner.kind === "sweeper_admin") return outcome.winner.txHash as Hex;
      throw new AppError(
        "BLOCKCHAIN_ERROR",
        `the owner's transaction ${row.txHash} did not go through (${outcome.winner.status}); nothing changed on ${network}`,
      );
    }
    if (rereadsPending(outcome))
      throw new AppError(
        "BLOCKCHAIN_ERROR",
        `the owner's transaction ${row.txHash} looks replaced by one the service did not sign, but its receipt is still being checked (for up to a day); do not send it again yet: try sweeper status later`,
      );
    if (outcome.state !== "open")
      throw new AppError(
        "BLOCKCHAIN_ERROR",
        `the owner's transaction ${row.txHash} was not mined; run sweeper status, then the command again`,
      );
    if (Date.now() > deadline)
      throw new AppError(
        "BLOCKCHAIN_ERROR",
        `the owner's transaction ${row.txHash} is not mined after ${WAIT_MS / 1000} s; the ledger keeps watching it (npm run admin -- status)`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}
