import { and, asc, eq, isNull, lt, lte, notInArray, or, sql } from "drizzle-orm";
import { encodeFunctionData, erc20Abi, type Address, type Hex } from "viem";
import { getConfig } from "../config";
import type { Db } from "../db";
import { deposits, forwards, paymentSessions, type Forward } from "../db/schema";
import { log } from "../log";
import { keyRingFor } from "./keys";
import { chainOf, networkConfig, publicClientFor } from "./networks";
import { allocateNonce } from "./nonces";
import { broadcast, errorText, hashOfRaw, receiptOf } from "./transactions";

/**
 * Forwards one deposit to its target, exactly once, as a resumable state machine:
 *   pending ──(gas tank tops up the deposit address, or it already holds enough BNB)──▶ gas_sent
 *   gas_sent ──(deposit key signs the token transfer)──▶ sweep_sent ──(receipt)──▶ completed
 * Every transaction is signed and stored (with its nonce) before it is broadcast, and a stored
 * transaction is only ever re-broadcast, never re-signed: a crash at any point resumes from the
 * row, and no step can pay twice. Forwards from one deposit address run one at a time, oldest
 * first, so the address's nonce is never contended.
 */
export type ForwardOutcome = "completed" | "waiting" | "busy" | "gas-tank-low" | "failed" | "retry";

const LEASE_MS = 60_000;
const TOP_UP_GAS = 21_000n;
const FINISHED = ["completed", "failed"] as const;

export async function advanceForward(db: Db, forwardId: number): Promise<ForwardOutcome> {
  if (!(await claim(db, forwardId))) return "busy";
  try {
    for (let step = 0; step < 5; step++) {
      const [forward] = await db.select().from(forwards).where(eq(forwards.id, forwardId));
      if (!forward || forward.status === "completed") return "completed";
      if (forward.status === "failed") return "failed";
      const outcome = await advance(db, forward);
      if (outcome !== "next") {
        if (outcome === "waiting" || outcome === "retry" || outcome === "gas-tank-low") await deferForward(db, forwardId, outcome);
        return outcome;
      }
    }
    return "waiting";
  } catch (error) {
    await db
      .update(forwards)
      .set({ lastError: errorText(error).slice(0, 500), attempts: sql`${forwards.attempts} + 1`, nextAttemptAt: backoff(5), updatedAt: new Date() })
      .where(eq(forwards.id, forwardId));
    log.warn({ forwardId, err: errorText(error) }, "forward step failed; will retry");
    return "retry";
  } finally {
    await db.update(forwards).set({ lockedUntil: null }).where(eq(forwards.id, forwardId));
  }
}

/** Forwards that can make progress now, oldest first, at most one per deposit address. */
export async function dueForwards(db: Db, limit = 50, now = new Date()): Promise<{ forwardId: number; fromAddress: string }[]> {
  const rows = await db
    .select({ id: forwards.id, from: forwards.fromAddress, network: forwards.network })
    .from(forwards)
    .where(and(notInArray(forwards.status, [...FINISHED]), lte(forwards.nextAttemptAt, now), or(isNull(forwards.lockedUntil), lt(forwards.lockedUntil, now))))
    .orderBy(asc(forwards.id))
    .limit(limit * 4);
  const seen = new Set<string>();
  const due: { forwardId: number; fromAddress: string }[] = [];
  for (const row of rows) {
    const key = `${row.network}:${row.from}`;
    if (seen.has(key)) continue;
    seen.add(key);
    due.push({ forwardId: row.id, fromAddress: row.from });
    if (due.length >= limit) break;
  }
  return due;
}

async function claim(db: Db, forwardId: number): Promise<boolean> {
  const now = new Date();
  const claimed = await db
    .update(forwards)
    .set({ lockedUntil: new Date(now.getTime() + LEASE_MS) })
    .where(and(eq(forwards.id, forwardId), or(isNull(forwards.lockedUntil), lt(forwards.lockedUntil, now))))
    .returning({ id: forwards.id });
  return claimed.length > 0;
}

class ForwardMovedOn extends Error {}

type StepOutcome = "next" | Exclude<ForwardOutcome, "busy" | "completed">;

async function advance(db: Db, forward: Forward): Promise<StepOutcome> {
  switch (forward.status) {
    case "pending":
      return (await olderForwardOpen(db, forward)) ? "waiting" : topUpGas(db, forward);
    case "gas_sent":
      return signSweep(db, forward);
    case "sweep_sent":
      return confirmSweep(db, forward);
    default:
      return "failed";
  }
}

async function olderForwardOpen(db: Db, forward: Forward): Promise<boolean> {
  const [older] = await db
    .select({ id: forwards.id })
    .from(forwards)
    .where(
      and(
        eq(forwards.network, forward.network),
        eq(forwards.fromAddress, forward.fromAddress),
        lt(forwards.id, forward.id),
        notInArray(forwards.status, [...FINISHED]),
      ),
    )
    .limit(1);
  return older !== undefined;
}

/** pending → gas_sent: fix gas price and limit, and top the deposit address up to exactly that. */
async function topUpGas(db: Db, forward: Forward): Promise<StepOutcome> {
  const client = publicClientFor(forward.network);
  const keys = keyRingFor(getConfig().masterMnemonic);
  const from = forward.fromAddress as Address;
  const tokenBalance = await client.readContract({ address: forward.tokenContract as Address, abi: erc20Abi, functionName: "balanceOf", args: [from] });
  if (tokenBalance < forward.amount) {
    return fail(db, forward, `deposit address holds ${tokenBalance} base units, less than the ${forward.amount} to forward`);
  }
  const data = transferData(forward);
  const [gasPrice, sweepGasLimit, balance] = await Promise.all([
    client.getGasPrice(),
    client.estimateGas({ account: from, to: forward.tokenContract as Address, data }),
    client.getBalance({ address: from }),
  ]);
  const needed = sweepGasLimit * gasPrice;
  if (balance >= needed) {
    await db
      .update(forwards)
      .set({ status: "gas_sent", gasPrice, sweepGasLimit, gasAmount: 0n, lastError: null, updatedAt: new Date() })
      .where(and(eq(forwards.id, forward.id), eq(forwards.status, "pending")));
    return "next";
  }

  const topUp = needed - balance;
  const tank = keys.gasTankAddress();
  const [tankBalance, tankCount] = await Promise.all([client.getBalance({ address: tank }), client.getTransactionCount({ address: tank })]);
  if (tankBalance < topUp + TOP_UP_GAS * gasPrice) {
    await db
      .update(forwards)
      .set({ lastError: `gas tank ${tank} holds ${tankBalance} wei, needs ${topUp + TOP_UP_GAS * gasPrice}`, updatedAt: new Date() })
      .where(eq(forwards.id, forward.id));
    return "gas-tank-low";
  }
  const chain = chainOf(networkConfig(forward.network)!);
  const raw = await db
    .transaction(async (tx) => {
      const nonce = await allocateNonce(tx, forward.network, tank, tankCount);
      const signed = await keys.signer("gasTank", 0).signTransaction({
        chain,
        chainId: chain.id,
        type: "legacy",
        to: from,
        value: topUp,
        gas: TOP_UP_GAS,
        gasPrice,
        nonce,
      });
      const stored = await tx
        .update(forwards)
        .set({
          status: "gas_sent",
          gasPrice,
          sweepGasLimit,
          gasAmount: topUp,
          gasNonce: nonce,
          gasRawTx: signed,
          gasTxHash: hashOfRaw(signed),
          lastError: null,
          updatedAt: new Date(),
        })
        .where(and(eq(forwards.id, forward.id), eq(forwards.status, "pending")))
        .returning({ id: forwards.id });
      // Someone else moved this forward on: roll back, or the tank's nonce would stay a hole.
      if (stored.length === 0) throw new ForwardMovedOn();
      return signed;
    })
    .catch((error: unknown) => {
      if (error instanceof ForwardMovedOn) return null;
      throw error;
    });
  if (raw) await broadcastOrNote(db, forward.network, raw, forward.id);
  return "next";
}

/** gas_sent → sweep_sent once the top-up is mined: sign the token transfer, store it, send it. */
async function signSweep(db: Db, forward: Forward): Promise<StepOutcome> {
  const client = publicClientFor(forward.network);
  if (forward.gasTxHash) {
    let receipt = await receiptOf(client, forward.gasTxHash as Hex);
    const tankMined = receipt ? null : await client.getTransactionCount({ address: keyRingFor(getConfig().masterMnemonic).gasTankAddress() });
    // Mined between the two calls: the count moved, and now the receipt is there.
    if (!receipt && tankMined! > forward.gasNonce!) receipt = await receiptOf(client, forward.gasTxHash as Hex);
    if (!receipt) {
      if (tankMined! > forward.gasNonce!) {
        // The tank's nonce went to another transaction (the key was used outside this service):
        // this top-up can never be mined. Plan again; at worst the address gets gas twice, the
        // tokens still move once (the sweep is not signed yet).
        await db
          .update(forwards)
          .set({ status: "pending", gasTxHash: null, gasRawTx: null, gasNonce: null, gasAmount: null, lastError: "gas top-up replaced; planning again", updatedAt: new Date() })
          .where(and(eq(forwards.id, forward.id), eq(forwards.status, "gas_sent")));
        return "next";
      }
      await broadcastOrNote(db, forward.network, forward.gasRawTx as Hex, forward.id);
      return "waiting";
    }
    if (receipt.status !== "success") return fail(db, forward, `gas top-up ${forward.gasTxHash} reverted`);
  }
  const [source] = await db
    .select({ depositIndex: paymentSessions.depositIndex })
    .from(deposits)
    .innerJoin(paymentSessions, eq(paymentSessions.id, deposits.sessionId))
    .where(eq(deposits.id, forward.depositId));
  const signer = keyRingFor(getConfig().masterMnemonic).signer("deposit", source!.depositIndex);
  if (signer.address !== forward.fromAddress) return fail(db, forward, "deposit key does not match the deposit address");
  const nonce = await client.getTransactionCount({ address: signer.address });
  const chain = chainOf(networkConfig(forward.network)!);
  const raw = await signer.signTransaction({
    chain,
    chainId: chain.id,
    type: "legacy",
    to: forward.tokenContract as Address,
    data: transferData(forward),
    gas: forward.sweepGasLimit!,
    gasPrice: forward.gasPrice!,
    nonce,
  });
  const stored = await db
    .update(forwards)
    .set({ status: "sweep_sent", sweepNonce: nonce, sweepRawTx: raw, sweepTxHash: hashOfRaw(raw), updatedAt: new Date() })
    .where(and(eq(forwards.id, forward.id), eq(forwards.status, "gas_sent")))
    .returning({ id: forwards.id });
  if (stored.length === 0) return "next"; // another worker got there first; re-read
  await broadcastOrNote(db, forward.network, raw, forward.id);
  return "next";
}

/** sweep_sent → completed when the transfer is mined; re-broadcast the same bytes until then. */
async function confirmSweep(db: Db, forward: Forward): Promise<StepOutcome> {
  const client = publicClientFor(forward.network);
  let receipt = await receiptOf(client, forward.sweepTxHash as Hex);
  const mined = receipt ? null : await client.getTransactionCount({ address: forward.fromAddress as Address });
  // Mined between the two calls: the count moved, and now the receipt is there.
  if (!receipt && mined! > forward.sweepNonce!) receipt = await receiptOf(client, forward.sweepTxHash as Hex);
  if (receipt) {
    if (receipt.status !== "success") return fail(db, forward, `sweep ${forward.sweepTxHash} reverted`);
    await db
      .update(forwards)
      .set({ status: "completed", gasUsed: receipt.gasUsed, completedAt: new Date(), lastError: null, updatedAt: new Date() })
      .where(eq(forwards.id, forward.id));
    return "next";
  }
  if (mined! > forward.sweepNonce!) {
    // The nonce was used, but not by our transaction: the deposit key signed something else.
    return fail(db, forward, `nonce ${forward.sweepNonce} of ${forward.fromAddress} was used by another transaction`);
  }
  await broadcastOrNote(db, forward.network, forward.sweepRawTx as Hex, forward.id);
  return "waiting";
}

function transferData(forward: Forward): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [forward.toAddress as Address, forward.amount] });
}

async function broadcastOrNote(db: Db, network: string, raw: Hex, forwardId: number): Promise<void> {
  const result = await broadcast(publicClientFor(network), raw);
  if (!result.ok) {
    await db.update(forwards).set({ lastError: `broadcast: ${result.error}`, updatedAt: new Date() }).where(eq(forwards.id, forwardId));
  }
}

async function fail(db: Db, forward: Forward, reason: string): Promise<StepOutcome> {
  log.error({ forwardId: forward.id, reason }, "forward failed; funds stay at the deposit address");
  await db.update(forwards).set({ status: "failed", lastError: reason, updatedAt: new Date() }).where(eq(forwards.id, forward.id));
  return "failed";
}

async function deferForward(db: Db, forwardId: number, outcome: StepOutcome): Promise<void> {
  const seconds = outcome === "gas-tank-low" ? 30 : outcome === "retry" ? 5 : 1;
  await db.update(forwards).set({ nextAttemptAt: backoff(seconds), updatedAt: new Date() }).where(eq(forwards.id, forwardId));
}

function backoff(seconds: number): Date {
  return new Date(Date.now() + seconds * 1000);
}

/** Forwards not finished, for the operator (npm run admin -- stuck-forwards) and health. */
export async function openForwards(db: Db, olderThanSeconds = 0) {
  return db
    .select()
    .from(forwards)
    .where(and(notInArray(forwards.status, ["completed"]), lt(forwards.createdAt, new Date(Date.now() - olderThanSeconds * 1000))))
    .orderBy(asc(forwards.id));
}

