/**
 * The deposits forwarding sweeps are the payments' records (lib/db/schema/payments/deposits.ts:
 * written by the scanner's recorder, read by sessions, refunds and re-pricing), not the engine's
 * tables: the planner and the sweep steps read and mark them through this port, the
 * `depositBook`, as the scanner records through its TransferRecorder. The implementation
 * (lib/domain/payments/deposit-book.ts) runs the statements the planner used to run itself, in
 * the caller's transaction: the lock order, the flags and "record before send" are unchanged
 * (forward-plan.ts, docs/design.md §12).
 */
import type { Db } from "../../db";
import { enginePort } from "../chain/ports";

/** One deposit not planned yet, with what the planner needs of its session. */
export interface UnplannedDeposit {
  deposit: {
    id: number;
    sessionId: string;
    toAddress: string;
    tokenContract: string;
    amount: bigint;
    late: boolean;
    blockNumber: bigint;
    logIndex: number;
  };
  sessionStatus: string;
  /** The transfer that completed the session (its tx hash), if it completed. */
  completingTx: string | null;
  /** Where the session's sweeps go. */
  forwardTo: string;
  /** The merchant (its dust-sweep budget). */
  userId: number;
}

export interface DepositBook {
  /** Distinct deposit addresses of `network` with deposits flagged for planning and due at `now` (at most `limit`). */
  flaggedAddresses(db: Db, network: string, now: Date, limit: number): Promise<string[]>;
  /** Clears the flag of these addresses' deposits due at `now` (those told to wait keep it). */
  clearFlags(tx: Db, network: string, addresses: string[], now: Date): Promise<void>;
  /** Locks, in id order, the sessions owning these deposit addresses: the planners' mutual exclusion. */
  lockAddresses(tx: Db, network: string, addresses: string[]): Promise<void>;
  /** The deposits into these addresses not attached to a forward yet, in id order. */
  unplanned(tx: Db, network: string, addresses: string[]): Promise<UnplannedDeposit[]>;
  /** Everything ever recorded into these addresses, summed per address and token (decimal text). */
  recordedTotals(tx: Db, network: string, addresses: string[]): Promise<{ address: string; token: string; total: string }[]>;
  /** The catalogue's minimum forward of these tokens on `network` (a token without a row is absent). */
  minimums(tx: Db, network: string, tokens: string[]): Promise<{ token: string; min: bigint }[]>;
  /** The deposits of these sessions in these transactions (the completing transfers' positions). */
  inTransactions(
    tx: Db,
    sessionIds: string[],
    txHashes: string[],
  ): Promise<{ sessionId: string; txHash: string; blockNumber: bigint; logIndex: number }[]>;
  /** Attaches these deposits to a forward. */
  attach(tx: Db, depositIds: number[], forwardId: number): Promise<void>;
  /** Keeps these deposits flagged, not planned before `until`. */
  defer(tx: Db, depositIds: number[], until: Date): Promise<void>;
  /** The key index of each of these deposit addresses (by their session; an address no session owns is absent). */
  depositKeys(db: Db, network: string, addresses: string[]): Promise<{ depositIndex: number; depositAddress: string }[]>;
  /** The BNB recorded into `address`, summed (decimal text). */
  nativeReceived(db: Db, network: string, address: string): Promise<string>;
}

export const depositBook = enginePort<DepositBook>("deposit-book");
