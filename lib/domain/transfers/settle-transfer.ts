/**
 * How a transfer settled: the ledger's answer for its nonce (lib/engine/ledger/settle.ts, which
 * re-sends and re-prices the recorded bytes meanwhile) and whether the winner's block is confirmed
 * as the network counts it (lib/engine/chain/confirmations.ts). Each record that points at the ledger
 * reads it here and writes its own status: a withdrawal row — a merchant's withdrawal or a refund's
 * payout (lib/domain/withdrawals/confirm-withdrawals.ts) — and a payout chunk's items
 * (lib/domain/payouts/settle-batches.ts).
 */

import type { NetworkConfig } from "../../base/config";
import type { Db } from "../../db";
import { confirmedBlock } from "../../engine/chain/confirmations";
import { publicClientFor } from "../../engine/chain/networks";
import { REFUSED_PREFIX } from "../../engine/ledger/broadcast";
import { type NonceOutcome, type NonceRef, settleNonce } from "../../engine/ledger/settle";

type Settled = Extract<NonceOutcome, { state: "settled" }>;

/** The nonce's outcome; a settled one says whether its winner is mined at a confirmed block. */
export type TransferOutcome = Exclude<NonceOutcome, Settled> | (Settled & { confirmed: boolean });

export async function settleTransfer(db: Db, ref: NonceRef, network: NetworkConfig): Promise<TransferOutcome> {
  const outcome = await settleNonce(db, ref);
  if (outcome.state !== "settled") return outcome;
  const confirmedUpTo = await confirmedBlock(publicClientFor(network.name), network.finality);
  const { minedBlock } = outcome.winner;
  return { ...outcome, confirmed: minedBlock !== null && BigInt(minedBlock) <= confirmedUpTo };
}

/** What the node said when it refused the transfer's own bytes (ledger row `chainTxId`) for good, if it did. */
export function refusedBroadcast(outcome: TransferOutcome, chainTxId: number): string | null {
  const own = outcome.rows.find((r) => r.id === chainTxId);
  return own?.broadcastError?.startsWith(REFUSED_PREFIX) ? own.broadcastError.slice(REFUSED_PREFIX.length) : null;
}
