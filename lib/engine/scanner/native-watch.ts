/**
 * Which deposit addresses the balance poller reads (native-balance-poll.ts), kept in its own table
 * (native_balance_watch). The engine does not know what a session offers: a port the caller injects
 * (lib/domain/payments/native-watch.ts, wired in lib/ops/jobs/steps.ts) lists the open sessions
 * that offer BNB and says what became of the ones that left that list. An address is watched from
 * its session's first sighting until its deadline's read is done (or it completed), then until
 * NATIVE_LATE_WATCH_MS after its deadline at a slower pace: a late or second payment is still
 * recorded and forwarded. A session that is gone is dropped.
 */
import { and, eq, gte, inArray, isNotNull, isNull, lt } from "drizzle-orm";
import type { Db } from "../../db";
import { type NativeBalanceWatchRow, nativeBalanceWatch } from "../../db/schema/engine";

/** A session open for payment that offers BNB, as the port lists it. */
export interface OpenNativeSession {
  sessionId: string;
  /** Checksummed. */
  depositAddress: string;
  expiresAt: Date;
}

/** What became of a session that is no longer open. */
export interface NativeSessionFacts {
  sessionId: string;
  /**
   * Completed: its status no longer changes, so there is no deadline to read at; its address is
   * read on at the late pace (a second payment is still recorded and forwarded).
   */
  settled: boolean;
  /** Transfers in blocks after this time are late (its expiry, or its cancel). */
  deadline: Date;
  /** A cancel's block: transfers in later blocks are late (null: decided by `deadline`). */
  deadlineBlock: bigint | null;
}

/** The port through which the domain tells the engine which addresses wait for BNB. */
export interface NativeWatchPort {
  /** The open (pending) sessions of `network` that offer BNB, a pending one past its expiry included. */
  open(db: Db, network: string): Promise<OpenNativeSession[]>;
  /** What became of these sessions (a missing id: the session is gone, its address no longer read). */
  facts(db: Db, sessionIds: string[]): Promise<NativeSessionFacts[]>;
  /** Of these addresses (checksummed; a chunk of them), those that ever received a recorded BNB deposit. */
  withNativeDeposits(db: Db, network: string, addresses: readonly string[]): Promise<string[]>;
  /** The BNB deposits recorded into these addresses in blocks up to `block`, summed per address (decimal text). */
  nativeReceived(db: Db, network: string, addresses: string[], block: bigint): Promise<{ address: string; total: string | null }[]>;
}

/** How long after its deadline an address is still read: a Safe's owners may sign after the checkout expired. */
export const NATIVE_LATE_WATCH_MS = 60 * 60 * 1000;
const INSERT_CHUNK = 1000;

/**
 * Brings the watch list of `network` up to date with the port: registers the newly open sessions,
 * applies what became of those that left, drops what is done. Returns the addresses still watched
 * (open ones, with their deadline's read still to do; late ones only when `withLate`).
 */
export async function syncWatch(
  db: Db,
  network: string,
  port: NativeWatchPort,
  options: { now: Date; atBlock: bigint; withLate: boolean },
): Promise<{ open: NativeBalanceWatchRow[]; late: NativeBalanceWatchRow[] }> {
  const [listed, known] = [
    await port.open(db, network),
    await db
      .select()
      .from(nativeBalanceWatch)
      .where(and(eq(nativeBalanceWatch.network, network), isNull(nativeBalanceWatch.finalBlock))),
  ];
  const knownAddresses = new Set(known.map((r) => r.address));
  const fresh = listed.filter((s) => !knownAddresses.has(s.depositAddress));
  const registered: NativeBalanceWatchRow[] = [];
  for (let start = 0; start < fresh.length; start += INSERT_CHUNK) {
    const rows = fresh
      .slice(start, start + INSERT_CHUNK)
      .map((s) => ({ network, address: s.depositAddress, sessionId: s.sessionId, deadline: s.expiresAt }));
    registered.push(...(await db.insert(nativeBalanceWatch).values(rows).onConflictDoNothing().returning()));
  }

  // Those that left the open list without their deadline's read: gone (dropped), completed (to the late
  // reads), expired or cancelled (their deadline now, read at its block when something arrived around it).
  const listedIds = new Set(listed.map((s) => s.sessionId));
  const left = known.filter((r) => !listedIds.has(r.sessionId));
  const leftIds = left.map((r) => r.sessionId);
  const facts = new Map((leftIds.length > 0 ? await port.facts(db, leftIds) : []).map((f) => [f.sessionId, f]));
  const dropped: string[] = [];
  const open = [...known.filter((r) => listedIds.has(r.sessionId)), ...registered];
  for (const row of left) {
    const fact: NativeSessionFacts | undefined = facts.get(row.sessionId);
    if (!fact) {
      dropped.push(row.address);
      continue;
    }
    const changed = fact.deadline.getTime() !== row.deadline.getTime() || fact.deadlineBlock !== row.deadlineBlock;
    if (changed || fact.settled)
      await db
        .update(nativeBalanceWatch)
        .set({
          deadline: fact.deadline,
          deadlineBlock: fact.deadlineBlock,
          ...(fact.settled ? { finalBlock: options.atBlock } : {}),
          updatedAt: options.now,
        })
        .where(
          and(eq(nativeBalanceWatch.network, network), eq(nativeBalanceWatch.address, row.address), isNull(nativeBalanceWatch.finalBlock)),
        );
    if (!fact.settled) open.push({ ...row, deadline: fact.deadline, deadlineBlock: fact.deadlineBlock });
  }
  if (dropped.length > 0)
    await db.delete(nativeBalanceWatch).where(and(eq(nativeBalanceWatch.network, network), inArray(nativeBalanceWatch.address, dropped)));

  // The late window: over for some (deleted), read for the others when it is their turn.
  const lateSince = new Date(options.now.getTime() - NATIVE_LATE_WATCH_MS);
  await db
    .delete(nativeBalanceWatch)
    .where(
      and(eq(nativeBalanceWatch.network, network), isNotNull(nativeBalanceWatch.finalBlock), lt(nativeBalanceWatch.deadline, lateSince)),
    );
  const late = options.withLate
    ? await db
        .select()
        .from(nativeBalanceWatch)
        .where(
          and(
            eq(nativeBalanceWatch.network, network),
            gte(nativeBalanceWatch.deadline, lateSince),
            isNotNull(nativeBalanceWatch.finalBlock),
          ),
        )
    : [];
  return { open, late };
}
