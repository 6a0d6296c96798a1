import { and, eq, ne } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { getConfig } from "../config";
import type { Db } from "../db";
import { sweepBatches, type SweepBatch } from "../db/schema";
import { log } from "../log";
import { keyRingFor } from "./keys";
import { chainOf, networkConfig, publicClientFor } from "./networks";
import { broadcast, hashOfRaw, PLAIN_TRANSFER_GAS, receiptOf } from "./transactions";

/**
 * The gas tank's recorded batch-sweeping transactions (`sweep_batches`: batches, the contracts'
 * deployments, cancels) and where each stands. A transaction is "replaced" only when its nonce was
 * used by another one and its receipt is still missing half a minute later (a lagging node must
 * not make a mined batch look lost). A batch or deployment that is not mined (a type the endpoint
 * does not take, a price under a raised floor: the node's answer may even look like success)
 * would hold the tank's nonce stream, and every merchant's forwards, forever: once its nonce is the
 * tank's next and STUCK_AFTER_MS have passed, the nonce is filled with a recorded 0-value
 * self-transfer at twice the price, so it is replaced and its forwards batch again. After
 * MAX_REFUSED_BATCHES such batches a process sweeps that network the classic way.
 */
const REPLACED_AFTER_MS = 30_000;
const STUCK_AFTER_MS = 5 * 60_000;
export const MAX_REFUSED_BATCHES = 2;
const NONCE_TAKEN = "its nonce was used by another transaction; checking once more before giving it up";

const REFUSED_KEY = Symbol.for("bsc-pay.refused-batches");
function refusedByNetwork(): Map<string, number> {
  const holder = globalThis as { [REFUSED_KEY]?: Map<string, number> };
  holder[REFUSED_KEY] ??= new Map();
  return holder[REFUSED_KEY];
}

/** Sweep batches of `network` whose nonce this process had to fill since it started. */
export function refusedBatches(network: string): number {
  return refusedByNetwork().get(network) ?? 0;
}

/** Tests: a fresh process. */
export function forgetRefusedBatches(): void {
  refusedByNetwork().clear();
}

export type SettledTransaction =
  | { status: "sent" }
  | { status: "mined" | "reverted"; receipt: NonNullable<Awaited<ReturnType<typeof receiptOf>>> }
  | { status: "replaced" };

/**
 * Where a recorded tank transaction stands: mined (with its receipt), replaced (it can never be
 * mined), or still on its way — then the same bytes are sent again. Rows other than batches are
 * updated here; a batch by its caller, together with its forwards.
 */
export async function settleTankTransaction(db: Db, row: SweepBatch): Promise<SettledTransaction> {
  const client = publicClientFor(row.network);
  let receipt = await receiptOf(client, row.txHash as Hex);
  if (!receipt) {
    const count = await client.getTransactionCount({ address: row.fromAddress as Address });
    // Mined between the two calls: the count moved, and now the receipt is there.
    if (count > row.nonce) receipt = await receiptOf(client, row.txHash as Hex);
    if (!receipt && count > row.nonce) {
      if (row.lastError !== NONCE_TAKEN) {
        await db.update(sweepBatches).set({ lastError: NONCE_TAKEN, updatedAt: new Date() }).where(eq(sweepBatches.id, row.id));
        return { status: "sent" };
      }
      if (Date.now() - row.updatedAt.getTime() < REPLACED_AFTER_MS) return { status: "sent" };
      if (row.kind !== "sweep") await markTankTransaction(db, row.id, { status: "replaced" });
      return { status: "replaced" };
    }
    if (!receipt) {
      const sent = await broadcast(client, row.rawTx as Hex);
      if (!sent.ok) {
        await db.update(sweepBatches).set({ lastError: `broadcast: ${sent.error}`.slice(0, 500), updatedAt: new Date() }).where(eq(sweepBatches.id, row.id));
      }
      // Stuck is read from the chain, not from the node's answer ("underpriced" counts as landed).
      if (row.kind !== "cancel" && count === row.nonce && Date.now() - row.createdAt.getTime() > STUCK_AFTER_MS) await cancelStuck(db, row);
      return { status: "sent" };
    }
  }
  const status = receipt.status === "success" ? "mined" : "reverted";
  if (row.kind !== "sweep") {
    await markTankTransaction(db, row.id, { status, gasUsed: receipt.gasUsed, minedAt: new Date() });
    if (status === "reverted") log.error({ network: row.network, txHash: row.txHash, kind: row.kind }, "a gas-tank transaction of batched sweeping reverted");
  }
  return { status, receipt };
}

/** Settles the open rows that no forward drives (deployments, cancels), so their nonces never stay holes. */
export async function settleOpenTankTransactions(db: Db, network?: string): Promise<void> {
  const open = await db
    .select()
    .from(sweepBatches)
    .where(and(network ? eq(sweepBatches.network, network) : undefined, ne(sweepBatches.kind, "sweep"), eq(sweepBatches.status, "sent")));
  for (const row of open) await settleTankTransaction(db, row);
}

/** Fills a stuck transaction's nonce with a recorded 0-value self-transfer (once per nonce). */
async function cancelStuck(db: Db, batch: SweepBatch): Promise<void> {
  const cancels = await db
    .select({ id: sweepBatches.id })
    .from(sweepBatches)
    .where(and(eq(sweepBatches.network, batch.network), eq(sweepBatches.kind, "cancel"), eq(sweepBatches.fromAddress, batch.fromAddress), eq(sweepBatches.nonce, batch.nonce)));
  if (cancels.length > 0) return;
  const client = publicClientFor(batch.network);
  const keys = keyRingFor(getConfig().masterMnemonic);
  const current = await client.getGasPrice();
  const gasPrice = 2n * (current > batch.gasPrice ? current : batch.gasPrice);
  const chain = chainOf(networkConfig(batch.network)!);
  const raw = await keys.signer("gasTank", 0).signTransaction({ chain, chainId: chain.id, type: "legacy", to: batch.fromAddress as Address, value: 0n, gas: PLAIN_TRANSFER_GAS, gasPrice, nonce: batch.nonce });
  const recorded = await db
    .insert(sweepBatches)
    .values({ network: batch.network, kind: "cancel", fromAddress: batch.fromAddress, nonce: batch.nonce, gasLimit: PLAIN_TRANSFER_GAS, gasPrice, txHash: hashOfRaw(raw), rawTx: raw, lastError: `fills the nonce of ${batch.kind} ${batch.id}, not mined for ${STUCK_AFTER_MS / 60_000} minutes` })
    .returning({ id: sweepBatches.id });
  if (recorded.length === 0) return;
  if (batch.kind === "sweep") refusedByNetwork().set(batch.network, refusedBatches(batch.network) + 1);
  log.warn({ network: batch.network, id: batch.id, kind: batch.kind, nonce: batch.nonce }, "a gas-tank transaction of batched sweeping is not mined; its nonce is filled with a 0-value transfer");
  await broadcast(client, raw);
}

async function markTankTransaction(db: Db, id: number, fields: Partial<Pick<SweepBatch, "status" | "gasUsed" | "minedAt" | "lastError">>): Promise<void> {
  await db
    .update(sweepBatches)
    .set({ ...fields, updatedAt: new Date() })
    .where(and(eq(sweepBatches.id, id), eq(sweepBatches.status, "sent")));
}
