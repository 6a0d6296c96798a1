/**
 * Batched sweeping (EIP-7702): pending forwards of one network and token join one gas-tank
 * transaction that carries the authorizations of the deposit addresses not yet delegated (signed
 * offline with their keys; they never need BNB) and BatchSweeper.sweepBatch over all of them
 * (batch-entries.ts reads, signs and simulates what goes in). A batch forms when SWEEP_BATCH_SIZE
 * forwards are due or the oldest waited SWEEP_BATCH_WAIT_MS; it is recorded with its forwards
 * (pending → batched) before it is broadcast, and its outcome is applied to them all at once
 * (sweep-batch-outcome.ts), as forward-state.ts and batch-state.ts decide.
 */
import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { getConfig } from "../../../base/config";
import { log } from "../../../base/log";
import type { Db } from "../../../db";
import { type Forward, forwards, IN_FLIGHT_FORWARD_STATUSES, sweepBatches } from "../../../db/schema/engine";
import { signingGasPrice } from "../../chain/gas-price";
import { publicClientFor } from "../../chain/networks";
import { serviceAddresses } from "../../chain/wallet-addresses";
import { broadcastRecorded } from "../../ledger/broadcast";
import { chargesForSessions } from "../../ledger/charges";
import { signAndRecord } from "../../ledger/signing";
import { lockDepositAddresses } from "../forward-plan";
import { applyForwardFact, applyToLocked, type StepOutcome, wait } from "../forward-records";
import { batchCheckSeconds } from "../forward-state";
import { batchGasLimit, type Entry, entriesPerBlock, readEntries, simulate, sweepCallData } from "./batch-entries";
import { TANK_LOW_PAUSE_SECONDS, tankLowPause } from "./batch-state";
import type { SweepContracts } from "./batch-support";
import { readNetworkBatching, recordNetworkFact } from "./network-batching";
import { completeBatch } from "./sweep-batch-outcome";
import { settleOpenTankTransactions, settleTankTransaction } from "./tank-transactions";

export { batchGasLimit } from "./batch-entries";

/**
 * Batches being formed in this process, per network and token: concurrent workers wait instead of
 * racing. An optimisation only: row locks keep formers of several processes correct.
 */
const forming = new Set<string>();

/** pending → batched (this forward and the other due ones of its network and token), or a reason to wait. */
export async function formSweepBatch(db: Db, forward: Forward, contracts: SweepContracts): Promise<StepOutcome> {
  // Row locks keep concurrent formers correct (a forward joins one batch at most); this only
  // spares the RPC reads and simulation of a batch another worker is forming right now.
  const key = `${forward.network} ${forward.tokenContract}`;
  if (forming.has(key)) return "waiting";
  forming.add(key);
  try {
    return await formBatch(db, forward, contracts);
  } finally {
    forming.delete(key);
  }
}

async function formBatch(db: Db, forward: Forward, contracts: SweepContracts): Promise<StepOutcome> {
  const { network } = forward;
  if (tankLowPause(await readNetworkBatching(db, network), new Date())) return "gas-tank-low";
  const { batchSize, batchWaitMs } = getConfig().sweep;
  const due = await batchCandidates(db, forward, batchSize);
  // Its address is busy, or others are ahead of it: the batch forming now is theirs.
  if (!due.some((c) => c.id === forward.id)) return "waiting";
  const oldest = Math.min(...due.map((c) => c.createdAt.getTime()));
  if (due.length < batchSize && Date.now() - oldest < batchWaitMs) return "waiting";
  const candidates = due.slice(0, await entriesPerBlock(network, contracts.gasPerSweep));

  const { entries, toClassic } = await readEntries(db, network, candidates, contracts);
  const simulated = await simulate(network, entries, contracts);
  toClassic.push(
    ...simulated.failed.map((e) => ({
      forward: e.forward,
      reason: "its sweep fails in the batch simulation (the token refuses the delegate's call)",
    })),
  );
  for (const { forward: f, reason } of toClassic) await applyForwardFact(db, f, { kind: "left-batch", reason });
  const triggerLeft = toClassic.some((c) => c.forward.id === forward.id);
  if (simulated.ok.length === 0) return triggerLeft ? "next" : "waiting";

  const client = publicClientFor(network);
  const tank = serviceAddresses().gasTank();
  const [gasPrice, tankBalance, tankCount] = await Promise.all([
    signingGasPrice(network),
    client.getBalance({ address: tank }),
    client.getTransactionCount({ address: tank }),
  ]);
  const worstCase =
    batchGasLimit(simulated.ok.length, simulated.ok.filter((e) => e.authorization).length, contracts.gasPerSweep) * gasPrice;
  if (tankBalance < worstCase) {
    // Every candidate would read the same: no formation on this network for a while.
    await recordNetworkFact(db, network, { kind: "tank-low" });
    await wait(db, forward.id, TANK_LOW_PAUSE_SECONDS, `gas tank ${tank} holds ${tankBalance} wei, the batch may need ${worstCase}`);
    return "gas-tank-low";
  }
  const recorded = await recordBatch(db, network, simulated.ok, contracts, { gasPrice, tankCount });
  if (!recorded) return triggerLeft ? "next" : "waiting";
  const sent = await broadcastRecorded(db, recorded.ledgerRow);
  if (!sent.sent)
    await db
      .update(sweepBatches)
      .set({ lastError: `broadcast: ${sent.error}`.slice(0, 500), updatedAt: new Date() })
      .where(eq(sweepBatches.id, recorded.batchId));
  log.info(
    { network, batchId: recorded.batchId, size: recorded.forwardIds.length, authorizations: recorded.authorizations },
    "sweep batch sent",
  );
  return recorded.forwardIds.includes(forward.id) || triggerLeft ? "next" : "waiting";
}

/**
 * Pending forwards of the trigger's network and token that may join a batch: not classic-only,
 * due or never failed (deferred only while waiting for company; a backoff is respected), and on an
 * address with no transaction in flight.
 */
async function batchCandidates(db: Db, forward: Forward, limit: number): Promise<Forward[]> {
  return db
    .select()
    .from(forwards)
    .where(
      and(
        eq(forwards.network, forward.network),
        eq(forwards.tokenContract, forward.tokenContract),
        eq(forwards.status, "pending"),
        eq(forwards.classicOnly, false),
        or(lte(forwards.nextAttemptAt, new Date()), eq(forwards.attempts, 0)),
        sql`not exists (select 1 from forwards busy where busy.network = ${forwards.network} and busy.from_address = ${forwards.fromAddress} and busy.status in ('gas_sent', 'sweep_sent', 'batched'))`,
      ),
    )
    .orderBy(asc(forwards.nextAttemptAt), asc(forwards.id))
    .limit(limit);
}

/**
 * In one transaction: the gas tank's nonce, the signed batch (signAndRecord) and its forwards moved to batched.
 * Locks in the planner's order (the sessions of the addresses, then their forward rows by id); an
 * address that got a transaction in flight meanwhile, or a forward that moved on, stays out.
 */
async function recordBatch(
  db: Db,
  network: string,
  ready: Entry[],
  contracts: SweepContracts,
  fees: { gasPrice: bigint; tankCount: number },
) {
  const tank = serviceAddresses().gasTankWallet();
  const addresses = ready.map((e) => e.forward.fromAddress);
  return db.transaction(async (tx) => {
    await lockDepositAddresses(tx, network, addresses);
    const rows = await tx
      .select()
      .from(forwards)
      .where(and(eq(forwards.network, network), inArray(forwards.fromAddress, addresses)))
      .orderBy(asc(forwards.id))
      .for("update");
    const busy = new Set(
      rows.filter((r) => (IN_FLIGHT_FORWARD_STATUSES as readonly string[]).includes(r.status)).map((r) => r.fromAddress),
    );
    const current = new Map(rows.map((r) => [r.id, r]));
    const final = ready.flatMap((e) => {
      const row = current.get(e.forward.id);
      const still = row && row.status === "pending" && !row.classicOnly && row.amount === e.forward.amount && !busy.has(row.fromAddress);
      return still ? [{ ...e, forward: row }] : [];
    });
    const [first] = final;
    if (!first) return null;
    const authorizationList = final.flatMap((e) => (e.authorization ? [e.authorization] : []));
    const gas = batchGasLimit(final.length, authorizationList.length, contracts.gasPerSweep);
    const data = sweepCallData(final);
    const { gasPrice } = fees;
    const ledgerRow = await signAndRecord(tx, {
      network,
      wallet: tank,
      kind: "batch",
      chainCount: fees.tankCount,
      // Type 4 needs at least one authorization; a batch of delegated addresses is a plain call.
      transaction:
        authorizationList.length > 0
          ? {
              type: "eip7702",
              to: contracts.sweeper,
              data,
              gas,
              maxFeePerGas: gasPrice,
              maxPriorityFeePerGas: gasPrice,
              authorizationList,
            }
          : { type: "legacy", to: contracts.sweeper, data, gas, gasPrice },
      chargedTo: await chargesForSessions(
        tx,
        final.map((e) => e.forward.sessionId),
      ),
    });
    const { txHash, nonce } = ledgerRow;
    const [batch] = await tx
      .insert(sweepBatches)
      .values({
        network,
        kind: "sweep",
        tokenContract: first.forward.tokenContract,
        size: final.length,
        authorizations: authorizationList.length,
        fromAddress: tank.address,
        nonce,
        gasLimit: gas,
        gasPrice,
        txHash,
        chainTxId: ledgerRow.id,
      })
      .returning({ id: sweepBatches.id });
    if (!batch) throw new Error("the sweep batch was not recorded");
    for (const [index, e] of final.entries()) {
      const record = { batchId: batch.id, batchIndex: index, amount: e.balance, gasPrice, sweepTxHash: txHash };
      await applyToLocked(tx, e.forward, { kind: "batched", entryIndex: index }, { record });
    }
    return { ledgerRow, batchId: batch.id, forwardIds: final.map((e) => e.forward.id), authorizations: authorizationList.length };
  });
}

/** batched → the batch's outcome for all of its forwards at once; re-sends the same bytes meanwhile. */
export async function confirmSweepBatch(db: Db, forward: Forward): Promise<StepOutcome> {
  if (forward.nextAttemptAt.getTime() > Date.now()) return "waiting";
  const [batch] = forward.batchId === null ? [] : await db.select().from(sweepBatches).where(eq(sweepBatches.id, forward.batchId));
  if (!batch) throw new Error(`forward ${forward.id} is batched without a batch record`);
  const settled = batch.status === "sent" ? await settleTankTransaction(db, batch) : { status: batch.status };
  if (settled.status === "sent") {
    // One check per batch and second, not one per forward (a schedule, not a state: see batchCheckSeconds).
    const at = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
    await db
      .update(forwards)
      .set({
        nextAttemptAt: sql`case when ${forwards.batchIndex} = 0 then ${at(batchCheckSeconds(0))}::timestamptz else ${at(batchCheckSeconds(1))}::timestamptz end`,
        updatedAt: new Date(),
      })
      .where(and(eq(forwards.batchId, batch.id), eq(forwards.status, "batched")));
    return "waiting";
  }
  await completeBatch(db, batch, settled);
  // Replaced, typically by our own cancel of a refused batch: record how that ended too.
  if (settled.status === "replaced") await settleOpenTankTransactions(db, batch.network);
  return "next";
}
