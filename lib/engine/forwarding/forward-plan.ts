/**
 * Which deposits get swept, and when (docs/design.md §12, "nothing to forward, nothing spent"). A
 * sweep moves a deposit address's whole balance of one token and covers every deposit of that
 * address and token not swept yet. New deposits become due when the address's unswept amount of
 * the token reaches the token's `minForwardAmount`, or when they are among the transfers that
 * completed their session; below that they wait (an outsider's dust — also dust sent to a
 * completed session's public address — costs the gas tank nothing). A completion sweep below the
 * minimum waits too once its merchant's daily gas budget cannot pay it (dust-gate.ts; each such
 * sweep planned in a round takes its estimated cost from the budget left): its deposits keep their
 * flag with `plan_after` at the budget's reset.
 *
 * Recording a deposit only flags it (`needs_planning`), so detection never waits for planning;
 * planFlaggedDeposits runs right after each scan and on every work tick, and a finished forward
 * plans its address in its own transaction. Planners hold the row locks of the sessions involved,
 * so two never plan the same deposits. Reads are batched: a hundred payments take a handful of
 * queries. The deposits and sessions are the payments' records: read and marked through the
 * `depositBook` port (deposit-book.ts).
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { forwards, IN_FLIGHT_FORWARD_STATUSES } from "../../db/schema/engine";
import { depositBook, type UnplannedDeposit } from "./deposit-book";
import { type DustSweepBudget, dustSweepBudgets, takeDustSweep } from "./dust-gate";

export interface QueuedForward {
  forwardId: number;
  fromAddress: string;
}

type UnplannedRow = UnplannedDeposit;
const groupKey = (address: string, token: string) => `${address} ${token}`;

/** Plans every address with flagged deposits on `network` (up to `limit` addresses a call). */
export async function planFlaggedDeposits(db: Db, network: string, limit = 500, now = new Date()): Promise<QueuedForward[]> {
  const book = depositBook.get();
  const addresses = await book.flaggedAddresses(db, network, now, limit);
  if (addresses.length === 0) return [];
  return db.transaction(async (tx) => {
    await lockDepositAddresses(tx, network, addresses);
    const queued = await planForwards(tx, network, addresses, now);
    // Deposits told to wait (plan_after in the future) keep their flag.
    await book.clearFlags(tx, network, addresses, now);
    return queued;
  });
}

/** Plans the unplanned deposits of these addresses; call it holding their sessions' row locks. */
export async function planForwards(tx: Db, network: string, addresses: string[], now = new Date()): Promise<QueuedForward[]> {
  if (addresses.length === 0) return [];
  const unique = [...new Set(addresses)];
  const book = depositBook.get();
  const unplanned: UnplannedRow[] = await book.unplanned(tx, network, unique);
  if (unplanned.length === 0) return [];
  const groups = new Map<string, UnplannedRow[]>();
  for (const row of unplanned) {
    const key = groupKey(row.deposit.toAddress, row.deposit.tokenContract);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const facts = await groupFacts(tx, network, [...new Set(unplanned.map((r) => r.deposit.toAddress))], unplanned);
  let budgets: Map<number, DustSweepBudget> | undefined; // asked once, only if a below-minimum sweep comes up

  const queued: QueuedForward[] = [];
  for (const [key, rows] of groups) {
    const ids = rows.map((r) => r.deposit.id);
    const unfinished = facts.unfinished.get(key);
    if (unfinished) {
      // Its amount is fixed once its gas step ran: these wait for it to finish, then are planned again.
      if ((IN_FLIGHT_FORWARD_STATUSES as readonly string[]).includes(unfinished.status)) continue;
      // A pending sweep takes the whole balance anyway; a held one keeps them with it, for the operator.
      await attach(
        tx,
        ids,
        unfinished.id,
        rows.reduce((total, r) => total + r.deposit.amount, 0n),
      );
      continue;
    }
    const unswept = (facts.recorded.get(key) ?? 0n) - (facts.moved.get(key)?.total ?? 0n);
    if (unswept <= 0n) {
      // An earlier whole-balance sweep already took these tokens (they arrived before it, confirmed after).
      const last = facts.moved.get(key)?.lastId;
      if (last) await book.attach(tx, ids, last);
      continue;
    }
    const [first] = rows;
    if (!first) continue; // a group is made of its rows: never empty
    const min = facts.minimums.get(first.deposit.tokenContract) ?? 0n;
    if (unswept < min) {
      if (!paidTheCompletion(rows, facts.completing)) continue;
      // A sweep the payer triggered below the minimum: paid by the tank only within the merchant's gas budget.
      budgets ??= await dustSweepBudgets(tx, network, [...new Set(unplanned.map((r) => r.userId))], now);
      const until = takeDustSweep(budgets, first.userId);
      if (until) {
        await book.defer(tx, ids, until);
        continue;
      }
    }
    const [forward] = await tx
      .insert(forwards)
      .values({
        depositId: first.deposit.id,
        sessionId: first.deposit.sessionId,
        network,
        fromAddress: first.deposit.toAddress,
        toAddress: first.forwardTo,
        tokenContract: first.deposit.tokenContract,
        amount: unswept,
      })
      .returning({ forwardId: forwards.id, fromAddress: forwards.fromAddress });
    if (!forward) throw new Error("the forward was not recorded");
    await book.attach(tx, ids, forward.forwardId);
    queued.push(forward);
  }
  return queued;
}

interface GroupFacts {
  unfinished: Map<string, { id: number; status: string }>;
  recorded: Map<string, bigint>;
  moved: Map<string, { total: bigint; lastId: number }>;
  minimums: Map<string, bigint>;
  /** Per completed session: the position (block, log index) of the transfer that completed it. */
  completing: Map<string, { blockNumber: bigint; logIndex: number }>;
}

async function groupFacts(tx: Db, network: string, addresses: string[], rows: UnplannedRow[]): Promise<GroupFacts> {
  const book = depositBook.get();
  const [open, recordedRows, movedRows, minimumRows] = await Promise.all([
    tx
      .select({ id: forwards.id, status: forwards.status, address: forwards.fromAddress, token: forwards.tokenContract })
      .from(forwards)
      .where(and(eq(forwards.network, network), inArray(forwards.fromAddress, addresses), ne(forwards.status, "completed"))),
    book.recordedTotals(tx, network, addresses),
    tx
      .select({
        address: forwards.fromAddress,
        token: forwards.tokenContract,
        total: sql<string>`sum(${forwards.amount})`,
        lastId: sql<string>`max(${forwards.id})`,
      })
      .from(forwards)
      .where(and(eq(forwards.network, network), inArray(forwards.fromAddress, addresses), eq(forwards.status, "completed")))
      .groupBy(forwards.fromAddress, forwards.tokenContract),
    book.minimums(tx, network, [...new Set(rows.map((r) => r.deposit.tokenContract))]),
  ]);
  const unfinished = new Map<string, { id: number; status: string }>();
  for (const f of open.sort((a, b) => a.id - b.id)) unfinished.set(groupKey(f.address, f.token), f);
  return {
    unfinished,
    recorded: new Map(recordedRows.map((r) => [groupKey(r.address, r.token), BigInt(r.total)])),
    moved: new Map(movedRows.map((r) => [groupKey(r.address, r.token), { total: BigInt(r.total), lastId: Number(r.lastId) }])),
    minimums: new Map(minimumRows.map((r) => [r.token, r.min])),
    completing: await completingTransfers(tx, rows),
  };
}

async function completingTransfers(tx: Db, rows: UnplannedRow[]): Promise<GroupFacts["completing"]> {
  const completed = [
    ...new Map(
      rows.flatMap((r) => (r.sessionStatus === "completed" && r.completingTx ? [[r.deposit.sessionId, r.completingTx] as const] : [])),
    ).entries(),
  ];
  const positions = new Map<string, { blockNumber: bigint; logIndex: number }>();
  if (completed.length === 0) return positions;
  const candidates = await depositBook.get().inTransactions(
    tx,
    completed.map(([id]) => id),
    completed.map(([, hash]) => hash),
  );
  const hashOf = new Map(completed);
  for (const c of candidates) {
    if (hashOf.get(c.sessionId) !== c.txHash) continue;
    const known = positions.get(c.sessionId);
    if (!known || c.blockNumber > known.blockNumber || (c.blockNumber === known.blockNumber && c.logIndex > known.logIndex))
      positions.set(c.sessionId, c);
  }
  return positions;
}

/** Whether some of these deposits are the transfers (up to and including the completing one) that completed their session. */
function paidTheCompletion(rows: UnplannedRow[], completing: GroupFacts["completing"]): boolean {
  return rows.some(({ deposit: d }) => {
    const at = completing.get(d.sessionId);
    return (
      !d.late && at !== undefined && (d.blockNumber < at.blockNumber || (d.blockNumber === at.blockNumber && d.logIndex <= at.logIndex))
    );
  });
}

async function attach(tx: Db, depositIds: number[], forwardId: number, amount: bigint): Promise<void> {
  // The forward first: if it moved on meanwhile (its amount is now fixed), the deposits stay unplanned.
  const updated = await tx
    .update(forwards)
    .set({ amount: sql`${forwards.amount} + ${amount.toString()}::numeric`, updatedAt: new Date() })
    .where(and(eq(forwards.id, forwardId), inArray(forwards.status, ["pending", "held"])))
    .returning({ id: forwards.id });
  if (updated.length > 0) await depositBook.get().attach(tx, depositIds, forwardId);
}

/**
 * Locks the sessions owning these deposit addresses (the planner's mutual exclusion). Looked up by
 * deposit topic, whose unique index finds them; there is no index on the address itself.
 */
export async function lockDepositAddresses(tx: Db, network: string, addresses: string[]): Promise<void> {
  if (addresses.length === 0) return;
  await depositBook.get().lockAddresses(tx, network, addresses);
}
