/**
 * After a payout's transaction has committed: its bytes go to the network (sendRecorded, and
 * sendLedgerRow for each row of a payout chunk), and a wallet short of BNB is topped up and the
 * recording tried again (withGasTopUps). The only place money out's gas is topped up or its
 * recording retried.
 */

import { eq } from "drizzle-orm";
import type { Address } from "viem";
import type { Db } from "../../db";
import { type ChainTransaction, chainTransactions, type RecordedWithdrawal } from "../../db/schema";
import { broadcastRecorded } from "../../engine/ledger/broadcast";
import { chargeForDomainWallet } from "../../engine/ledger/charges";
import { ensureGasBalance } from "../../engine/ledger/gas-top-up";
import { replaceTransaction } from "../../engine/ledger/replace";
import { transferRefusal } from "./reasons";
import { ShortOfGasError } from "./transfer-errors";

const GAS_ROUNDS = 5;

/** Payouts of this process waiting for gas, per wallet: one top-up covers all of them. */
const waitingForGas = new Map<Address, number>();

export type SendResult = "sent" | "retry-later" | "refused";

/**
 * Runs `record` — one transaction that records a payout (reserveTransfer + recordTransfer, or a
 * payout batch's chunk: lib/domain/payouts/record-chunk.ts) — and,
 * when the wallet lacks BNB for it (ShortOfGasError: nothing recorded), tops the wallet up and
 * runs it again, up to GAS_ROUNDS times. `afterTopUp`: true once this request had the wallet
 * topped up (its gas is spent: no budget check again).
 */
export async function withGasTopUps<T>(db: Db, record: (afterTopUp: boolean) => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await record(round > 1);
    } catch (error) {
      if (!(error instanceof ShortOfGasError)) throw error;
      if (round >= GAS_ROUNDS)
        throw transferRefusal("BLOCKCHAIN_ERROR", "wallet-short-of-gas", `not enough BNB for gas in the withdrawal wallet ${error.wallet}`);
      await topUpFor(db, error);
    }
  }
}

/**
 * First broadcast of a recorded payout (only ever its recorded bytes). A node that refuses the
 * bytes for good has their nonce filled at once with a 0-value cancel, recorded first: the
 * payout then fails once the ledger settles that nonce ("refused"; the caller may wait for it).
 * "retry-later": the ledger's watchdog sends it again.
 */
export async function sendRecorded(db: Db, payout: Pick<RecordedWithdrawal, "id" | "chainTxId">): Promise<SendResult> {
  return sendLedgerRow(db, await ledgerRow(db, payout));
}

/**
 * The send step of money out, the same for one transfer (sendRecorded) and each row of a payout
 * chunk (lib/domain/payouts/send-batch.ts, in nonce order): the row's recorded bytes broadcast, or
 * its nonce filled with a recorded 0-value cancel when the node refuses them for good.
 */
export async function sendLedgerRow(db: Db, row: ChainTransaction): Promise<SendResult> {
  const sent = await broadcastRecorded(db, row);
  if (sent.sent) return "sent";
  if (!sent.refusedForGood) return "retry-later";
  await replaceTransaction(db, row, "cancel");
  return "refused";
}

/**
 * Outside every transaction: a broadcast top-up must never be rolled back. The top-up covers the
 * wallet's unmined sends and the sends of this process waiting for gas right now, each at its
 * capped gas limit — never more.
 */
async function topUpFor(db: Db, shortage: ShortOfGasError): Promise<void> {
  const others = waitingForGas.get(shortage.wallet) ?? 0;
  waitingForGas.set(shortage.wallet, others + 1);
  try {
    const chargedTo = await chargeForDomainWallet(db, shortage.domainId);
    const more = shortage.perSendWei * BigInt(others);
    await ensureGasBalance(db, shortage.network, shortage.wallet, shortage.neededWei + more, chargedTo, shortage.gasWei + more);
  } finally {
    const left = (waitingForGas.get(shortage.wallet) ?? 1) - 1;
    if (left > 0) waitingForGas.set(shortage.wallet, left);
    else waitingForGas.delete(shortage.wallet);
  }
}

async function ledgerRow(db: Db, payout: Pick<RecordedWithdrawal, "id" | "chainTxId">): Promise<ChainTransaction> {
  const [row] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, payout.chainTxId));
  if (!row) throw new Error(`withdrawal ${payout.id} has no ledger row`);
  return row;
}
