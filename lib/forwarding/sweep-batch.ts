import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { type Address, decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex, type SignedAuthorization } from "viem";
import { keyRingFor } from "../chain/keys";
import { readContracts } from "../chain/multicall";
import { chainOf, networkConfig, publicClientFor } from "../chain/networks";
import { allocateNonce } from "../chain/nonces";
import { getConfig } from "../config";
import type { Db } from "../db";
import { type Forward, forwards, IN_FLIGHT_FORWARD_STATUSES, paymentSessions, sweepBatches } from "../db/schema";
import { broadcastRecorded } from "../ledger/broadcast";
import { chargesForSessions } from "../ledger/charges";
import { log } from "../log";
import { lockDepositAddresses } from "./forward-plan";
import { after, type StepOutcome } from "./forward-records";
import { completeBatch } from "./sweep-batch-outcome";
import { batchSweeperAbi, depositDelegateAbi, type SweepContracts } from "./sweep-contracts";
import { recordTankTransaction, settleOpenTankTransactions, settleTankTransaction } from "./tank-transactions";

/**
 * Batched sweeping (EIP-7702): pending forwards of one network and token join one gas-tank
 * transaction that carries the authorizations of the deposit addresses not yet delegated (signed
 * offline with their keys; they never need BNB) and BatchSweeper.sweepBatch over all of them.
 *   pending ──(batch formed: signed and recorded with its forwards, then broadcast)──▶ batched
 *   batched ──(receipt: its entry's Swept ok)──▶ completed
 *   batched ──(entry failed)──▶ pending, classicOnly (the classic path simulates and sweeps, or holds)
 *   batched ──(batch reverted)──▶ pending, classicOnly; (batch replaced)──▶ pending
 * A batch forms when SWEEP_BATCH_SIZE forwards are due or the oldest waited SWEEP_BATCH_WAIT_MS.
 * Before anything is signed the batch is simulated (eth_call with its authorizations): an entry
 * that would fail leaves the batch for the classic path, which spends nothing on a token that
 * refuses. Every entry runs with at most gasPerSweep gas (100,000, or MAX_SWEEP_GAS if lower).
 */
const BATCH_BASE_GAS = 60_000n;
/** Per authorization: 25,000 intrinsic (an empty account) plus loading the delegation. */
const AUTHORIZATION_GAS = 27_500n;
/** Per entry beyond its allowance: calldata, the sweeper's loop, two cold accounts, the Swept event. */
const ENTRY_OVERHEAD_GAS = 20_000n;
const RPC_PARALLEL = 25;

export function batchGasLimit(entries: number, authorizations: number, gasPerSweep: bigint): bigint {
  return BATCH_BASE_GAS + BigInt(authorizations) * AUTHORIZATION_GAS + BigInt(entries) * ((gasPerSweep * 64n) / 63n + ENTRY_OVERHEAD_GAS);
}

interface Entry {
  forward: Forward;
  balance: bigint;
  authorization: SignedAuthorization | null;
}

/** Batches being formed in this process, per network and token: concurrent workers wait instead of racing. */
const forming = new Set<string>();
/** Networks whose gas tank could not pay a batch just now, until when. */
const tankLowUntil = new Map<string, number>();
const TANK_LOW_PAUSE_MS = 30_000;
/** Block gas limits, per network, read at most once a minute. */
const blockGasLimits = new Map<string, { gasLimit: bigint; readAt: number }>();

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
  if ((tankLowUntil.get(network) ?? 0) > Date.now()) return "gas-tank-low";
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
  for (const { forward: f, reason } of toClassic) await sendToClassic(db, f, reason);
  const triggerLeft = toClassic.some((c) => c.forward.id === forward.id);
  if (simulated.ok.length === 0) return triggerLeft ? "next" : "waiting";

  const client = publicClientFor(network);
  const tank = keyRingFor(getConfig().masterMnemonic).gasTankAddress();
  const [gasPrice, tankBalance, tankCount] = await Promise.all([
    client.getGasPrice(),
    client.getBalance({ address: tank }),
    client.getTransactionCount({ address: tank }),
  ]);
  const worstCase =
    batchGasLimit(simulated.ok.length, simulated.ok.filter((e) => e.authorization).length, contracts.gasPerSweep) * gasPrice;
  if (tankBalance < worstCase) {
    // Every candidate would read the same: no formation on this network for a while.
    tankLowUntil.set(network, Date.now() + TANK_LOW_PAUSE_MS);
    await db
      .update(forwards)
      .set({ lastError: `gas tank ${tank} holds ${tankBalance} wei, the batch may need ${worstCase}`, updatedAt: new Date() })
      .where(eq(forwards.id, forward.id));
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
 * In one transaction: the gas tank's nonce, the signed batch and its forwards moved to batched.
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
  const keys = keyRingFor(getConfig().masterMnemonic);
  const tank = keys.gasTankAddress();
  const chain = chainOf(networkConfig(network)!);
  const addresses = ready.map((e) => e.forward.fromAddress);
  return db.transaction(async (tx) => {
    await lockDepositAddresses(tx, network, addresses);
    const rows = await tx
      .select({
        id: forwards.id,
        status: forwards.status,
        amount: forwards.amount,
        classicOnly: forwards.classicOnly,
        fromAddress: forwards.fromAddress,
      })
      .from(forwards)
      .where(and(eq(forwards.network, network), inArray(forwards.fromAddress, addresses)))
      .orderBy(asc(forwards.id))
      .for("update");
    const busy = new Set(
      rows.filter((r) => (IN_FLIGHT_FORWARD_STATUSES as readonly string[]).includes(r.status)).map((r) => r.fromAddress),
    );
    const current = new Map(rows.map((r) => [r.id, r]));
    const final = ready.filter((e) => {
      const row = current.get(e.forward.id);
      return row && row.status === "pending" && !row.classicOnly && row.amount === e.forward.amount && !busy.has(e.forward.fromAddress);
    });
    if (final.length === 0) return null;
    const authorizationList = final.flatMap((e) => (e.authorization ? [e.authorization] : []));
    const gas = batchGasLimit(final.length, authorizationList.length, contracts.gasPerSweep);
    const data = sweepCallData(final);
    const nonce = await allocateNonce(tx, network, tank, fees.tankCount);
    const signer = keys.gasTankSigner();
    const { gasPrice } = fees;
    // Type 4 needs at least one authorization; a batch of delegated addresses is a plain call.
    const raw =
      authorizationList.length > 0
        ? await signer.signTransaction({
            chain,
            chainId: chain.id,
            type: "eip7702",
            to: contracts.sweeper,
            data,
            gas,
            maxFeePerGas: gasPrice,
            maxPriorityFeePerGas: gasPrice,
            nonce,
            authorizationList,
          })
        : await signer.signTransaction({ chain, chainId: chain.id, type: "legacy", to: contracts.sweeper, data, gas, gasPrice, nonce });
    const ledgerRow = await recordTankTransaction(
      tx,
      network,
      tank,
      "batch",
      raw,
      await chargesForSessions(
        tx,
        final.map((e) => e.forward.sessionId),
      ),
    );
    const txHash = ledgerRow.txHash;
    const [batch] = await tx
      .insert(sweepBatches)
      .values({
        network,
        kind: "sweep",
        tokenContract: final[0]!.forward.tokenContract,
        size: final.length,
        authorizations: authorizationList.length,
        fromAddress: tank,
        nonce,
        gasLimit: gas,
        gasPrice,
        txHash,
        chainTxId: ledgerRow.id,
      })
      .returning({ id: sweepBatches.id });
    for (const [index, e] of final.entries()) {
      await tx
        .update(forwards)
        .set({
          status: "batched",
          batchId: batch!.id,
          batchIndex: index,
          amount: e.balance,
          gasPrice,
          sweepTxHash: txHash,
          lastError: null,
          nextAttemptAt: batchCheckAt(index),
          updatedAt: new Date(),
        })
        .where(eq(forwards.id, e.forward.id));
    }
    return { ledgerRow, batchId: batch!.id, forwardIds: final.map((e) => e.forward.id), authorizations: authorizationList.length };
  });
}

/**
 * The first entry of a batch checks it every second; the others only stand in for it (a worker
 * that died holding its lease), so up to 100 rows of one batch do not take the forward queue's
 * places every second from other merchants' forwards.
 */
const SIBLING_CHECK_SECONDS = 30;
function batchCheckAt(index: number): Date {
  return after(index === 0 ? 1 : SIBLING_CHECK_SECONDS);
}

/** batched → the batch's outcome for all of its forwards at once; re-sends the same bytes meanwhile. */
export async function confirmSweepBatch(db: Db, forward: Forward): Promise<StepOutcome> {
  if (forward.nextAttemptAt.getTime() > Date.now()) return "waiting";
  const [batch] = forward.batchId === null ? [] : await db.select().from(sweepBatches).where(eq(sweepBatches.id, forward.batchId));
  if (!batch) throw new Error(`forward ${forward.id} is batched without a batch record`);
  const settled = batch.status === "sent" ? await settleTankTransaction(db, batch) : { status: batch.status };
  if (settled.status === "sent") {
    // One check per batch and second, not one per forward.
    await db
      .update(forwards)
      .set({
        nextAttemptAt: sql`case when ${forwards.batchIndex} = 0 then ${after(1).toISOString()}::timestamptz else ${after(SIBLING_CHECK_SECONDS).toISOString()}::timestamptz end`,
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

async function readEntries(db: Db, network: string, candidates: Forward[], contracts: SweepContracts) {
  const token = candidates[0]!.tokenContract as Address;
  const addresses = candidates.map((c) => c.fromAddress as Address);
  const reads = await readContracts<unknown>(network, [
    ...addresses.map((owner) => ({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] })),
    ...addresses.map((owner) => ({ address: owner, abi: depositDelegateAbi, functionName: "sweeper", args: [] })),
  ]);
  const sessions = await db
    .select({ depositIndex: paymentSessions.depositIndex, depositAddress: paymentSessions.depositAddress })
    .from(paymentSessions)
    .where(and(eq(paymentSessions.network, network), inArray(paymentSessions.depositAddress, addresses)));
  const indexOf = new Map(sessions.map((s) => [s.depositAddress, s.depositIndex]));
  const keys = keyRingFor(getConfig().masterMnemonic);
  const client = publicClientFor(network);
  const chainId = networkConfig(network)!.chainId;

  const toClassic: { forward: Forward; reason: string }[] = [];
  const ready: { forward: Forward; balance: bigint; delegated: boolean }[] = [];
  for (const [i, forward] of candidates.entries()) {
    const balance = reads[i];
    const delegatedTo = reads[addresses.length + i];
    // The classic step reads again and holds it with the reason (balance short, unreadable token).
    if (typeof balance !== "bigint") toClassic.push({ forward, reason: "its balance could not be read" });
    else if (balance === 0n || balance < forward.amount) toClassic.push({ forward, reason: "its balance is short of the ledger" });
    else if (!indexOf.has(forward.fromAddress)) toClassic.push({ forward, reason: "no session owns the deposit address" });
    else
      ready.push({
        forward,
        balance,
        delegated: typeof delegatedTo === "string" && delegatedTo.toLowerCase() === contracts.sweeper.toLowerCase(),
      });
  }
  const signed: (Entry & { keyMismatch?: boolean })[] = [];
  for (let start = 0; start < ready.length; start += RPC_PARALLEL) {
    const chunk = ready.slice(start, start + RPC_PARALLEL);
    signed.push(
      ...(await Promise.all(
        chunk.map(async ({ forward, balance, delegated }) => {
          if (delegated) return { forward, balance, authorization: null };
          const signer = keys.signer("deposit", indexOf.get(forward.fromAddress)!);
          // The classic step holds it with the reason; the others still batch.
          if (signer.address !== forward.fromAddress) return { forward, balance, authorization: null, keyMismatch: true };
          const nonce = await client.getTransactionCount({ address: signer.address });
          return { forward, balance, authorization: await signer.signAuthorization({ address: contracts.delegate, chainId, nonce }) };
        }),
      )),
    );
  }
  for (const e of signed.filter((x) => x.keyMismatch))
    toClassic.push({ forward: e.forward, reason: "the deposit key does not match the deposit address" });
  return { entries: signed.filter((x) => !x.keyMismatch), toClassic };
}

/** The batch as an eth_call with its authorizations: which entries would sweep. */
async function simulate(network: string, entries: Entry[], contracts: SweepContracts): Promise<{ ok: Entry[]; failed: Entry[] }> {
  if (entries.length === 0) return { ok: [], failed: [] };
  const client = publicClientFor(network);
  const authorizationList = entries.flatMap((e) => (e.authorization ? [e.authorization] : []));
  const { data } = await client.call({
    account: keyRingFor(getConfig().masterMnemonic).gasTankAddress(),
    to: contracts.sweeper,
    data: sweepCallData(entries),
    gas: batchGasLimit(entries.length, authorizationList.length, contracts.gasPerSweep),
    ...(authorizationList.length > 0 ? { authorizationList } : {}),
  });
  const flags = decodeFunctionResult({ abi: batchSweeperAbi, functionName: "sweepBatch", data: data ?? "0x" }) as readonly boolean[];
  return { ok: entries.filter((_, i) => flags[i] === true), failed: entries.filter((_, i) => flags[i] !== true) };
}

function sweepCallData(entries: Entry[]): Hex {
  return encodeFunctionData({
    abi: batchSweeperAbi,
    functionName: "sweepBatch",
    args: [
      entries.map((e) => ({ from: e.forward.fromAddress, token: e.forward.tokenContract, to: e.forward.toAddress, amount: e.balance })),
    ],
  });
}

async function sendToClassic(db: Db, forward: Forward, reason: string): Promise<void> {
  await db
    .update(forwards)
    .set({ classicOnly: true, lastError: `left the batch: ${reason}`.slice(0, 500), updatedAt: new Date() })
    .where(and(eq(forwards.id, forward.id), eq(forwards.status, "pending")));
}

/** How many entries fit in two thirds of a block at worst (every entry using its whole allowance). */
async function entriesPerBlock(network: string, gasPerSweep: bigint): Promise<number> {
  let known = blockGasLimits.get(network);
  if (!known || Date.now() - known.readAt > 60_000) {
    known = { gasLimit: (await publicClientFor(network).getBlock()).gasLimit, readAt: Date.now() };
    blockGasLimits.set(network, known);
  }
  const block = known;
  const perEntry = batchGasLimit(1, 1, gasPerSweep) - BATCH_BASE_GAS;
  return Math.max(1, Number(((block.gasLimit * 2n) / 3n - BATCH_BASE_GAS) / perEntry));
}
