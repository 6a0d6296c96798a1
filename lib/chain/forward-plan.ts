import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db";
import { deposits, forwards, paymentSessions, tokenCatalogue, type Deposit } from "../db/schema";

/**
 * Which deposits get swept, and when (DESIGN.md §12, "nothing to forward, nothing spent"). A
 * sweep moves a deposit address's whole balance of one token and covers every deposit of that
 * address and token not swept yet. New deposits become due when the address's unswept amount of
 * the token reaches the token's `minForwardAmount`, or when they are among the transfers that
 * completed their session; below that they wait (an outsider's dust — also dust sent to a
 * completed session's public address — costs the gas tank nothing).
 *
 * Call it in the transaction that records deposits or finishes a forward, holding the row locks
 * of the sessions involved, so two planners never plan the same deposits.
 */
export interface QueuedForward {
  forwardId: number;
  fromAddress: string;
}

export async function planForwards(tx: Db, network: string, addresses: string[]): Promise<QueuedForward[]> {
  if (addresses.length === 0) return [];
  const unplanned = await tx
    .select({ deposit: deposits, sessionStatus: paymentSessions.status, completingTx: paymentSessions.txHash, forwardTo: paymentSessions.forwardTo })
    .from(deposits)
    .innerJoin(paymentSessions, eq(paymentSessions.id, deposits.sessionId))
    .where(and(eq(deposits.network, network), inArray(deposits.toAddress, [...new Set(addresses)]), isNull(deposits.forwardId)))
    .orderBy(deposits.id);
  const groups = new Map<string, typeof unplanned>();
  for (const row of unplanned) {
    const key = `${row.deposit.toAddress} ${row.deposit.tokenContract}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const queued: QueuedForward[] = [];
  for (const rows of groups.values()) {
    const planned = await planGroup(tx, network, rows);
    if (planned) queued.push(planned);
  }
  return queued;
}

type UnplannedRow = { deposit: Deposit; sessionStatus: string; completingTx: string | null; forwardTo: string };

async function planGroup(tx: Db, network: string, rows: UnplannedRow[]): Promise<QueuedForward | null> {
  const { toAddress: address, tokenContract: token, sessionId } = rows[0]!.deposit;
  const ids = rows.map((r) => r.deposit.id);
  const sum = rows.reduce((total, r) => total + r.deposit.amount, 0n);
  const group = and(eq(forwards.network, network), eq(forwards.fromAddress, address), eq(forwards.tokenContract, token));

  const [unfinished] = await tx
    .select({ id: forwards.id, status: forwards.status })
    .from(forwards)
    .where(and(group, inArray(forwards.status, ["pending", "gas_sent", "sweep_sent", "held"])))
    .orderBy(desc(forwards.id))
    .limit(1);
  if (unfinished) {
    // Its amount is fixed once its gas step ran: these wait for it to finish, then are planned again.
    if (unfinished.status === "gas_sent" || unfinished.status === "sweep_sent") return null;
    // A pending sweep takes the whole balance anyway; a held one keeps them with it, for the operator.
    await attach(tx, ids, unfinished.id, sum);
    return null;
  }

  const [recorded] = await tx
    .select({ total: sql<string>`coalesce(sum(${deposits.amount}), 0)` })
    .from(deposits)
    .where(and(eq(deposits.network, network), eq(deposits.toAddress, address), eq(deposits.tokenContract, token)));
  const [moved] = await tx
    .select({ total: sql<string>`coalesce(sum(${forwards.amount}), 0)` })
    .from(forwards)
    .where(and(group, eq(forwards.status, "completed")));
  const unswept = BigInt(recorded!.total) - BigInt(moved!.total);
  if (unswept <= 0n) {
    // An earlier whole-balance sweep already took these tokens (they arrived before it, confirmed after).
    const [last] = await tx.select({ id: forwards.id }).from(forwards).where(and(group, eq(forwards.status, "completed"))).orderBy(desc(forwards.id)).limit(1);
    if (last) await tx.update(deposits).set({ forwardId: last.id }).where(inArray(deposits.id, ids));
    return null;
  }

  const [listed] = await tx
    .select({ min: tokenCatalogue.minForwardAmount })
    .from(tokenCatalogue)
    .where(and(eq(tokenCatalogue.network, network), eq(tokenCatalogue.contractAddress, token)));
  if (unswept < (listed?.min ?? 0n) && !(await paidTheCompletion(tx, rows))) return null;

  const [forward] = await tx
    .insert(forwards)
    .values({ depositId: ids[0]!, sessionId, network, fromAddress: address, toAddress: rows[0]!.forwardTo, tokenContract: token, amount: unswept })
    .returning({ forwardId: forwards.id, fromAddress: forwards.fromAddress });
  await tx.update(deposits).set({ forwardId: forward!.forwardId }).where(inArray(deposits.id, ids));
  return forward!;
}

/** Whether some of these deposits are the transfers (up to and including the completing one) that completed the session. */
async function paidTheCompletion(tx: Db, rows: UnplannedRow[]): Promise<boolean> {
  const { sessionStatus, completingTx, deposit } = rows[0]!;
  if (sessionStatus !== "completed" || !completingTx) return false;
  const [completing] = await tx
    .select({ blockNumber: deposits.blockNumber, logIndex: deposits.logIndex })
    .from(deposits)
    .where(and(eq(deposits.sessionId, deposit.sessionId), eq(deposits.txHash, completingTx)))
    .orderBy(desc(deposits.blockNumber), desc(deposits.logIndex))
    .limit(1);
  if (!completing) return false;
  const atOrBefore = (d: Deposit) => d.blockNumber < completing.blockNumber || (d.blockNumber === completing.blockNumber && d.logIndex <= completing.logIndex);
  return rows.some((r) => !r.deposit.late && atOrBefore(r.deposit));
}

async function attach(tx: Db, depositIds: number[], forwardId: number, amount: bigint): Promise<void> {
  await tx.update(deposits).set({ forwardId }).where(inArray(deposits.id, depositIds));
  await tx
    .update(forwards)
    .set({ amount: sql`${forwards.amount} + ${amount.toString()}::numeric`, updatedAt: new Date() })
    .where(and(eq(forwards.id, forwardId), inArray(forwards.status, ["pending", "held"])));
}

/** Locks the sessions owning these deposit addresses (the planner's mutual exclusion). */
export async function lockDepositAddresses(tx: Db, network: string, addresses: string[]): Promise<void> {
  if (addresses.length === 0) return;
  await tx
    .select({ id: paymentSessions.id })
    .from(paymentSessions)
    .where(and(eq(paymentSessions.network, network), inArray(paymentSessions.depositAddress, [...new Set(addresses)])))
    .orderBy(paymentSessions.id)
    .for("update");
}
