/**
 * A nonce settled as "taken by a transaction we did not sign" may only have had its receipt
 * hidden by a receipts node far behind (docs/design.md §17). Its rows' receipts are read again, with
 * backoff, for RECHECK_RECEIPTS_FOR_MS; a final receipt found then settles the nonce like any
 * other (its row mined or reverted, the others replaced by it), and the withdrawal, refund or
 * forward that points at it takes that outcome. `admin ledger resettle` reads them on demand.
 */

import { and, asc, eq, isNotNull, isNull, lte } from "drizzle-orm";
import { getAddress, isAddress } from "viem";
import { AppError } from "../../base/errors";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type ChainTransaction, chainTransactions } from "../../db/schema/engine";
import { networkConfig, publicClientFor } from "../chain/networks";
import { errorText } from "../chain/rpc-errors";
import { decideNonce, nextRecheckAfterRead } from "./decide";
import { landedReceipt } from "./finality";
import { applyNonceDecision, nonceStateOf } from "./nonce-records";
import { knownOutcome, type NonceRef, nonceRows, settleNonce } from "./settle";

export type Reread =
  | { state: "settled"; winner: ChainTransaction }
  | { state: "not-final"; nextAt: Date | null }
  | { state: "no-receipt"; nextAt: Date | null }
  /** A row of the nonce is no longer "replaced by none": its re-reads were stopped. */
  | { state: "not-taken" };

/** Job step: the taken-by-other nonces whose re-read is due. Returns how many were settled now. */
export async function recheckTakenNonces(db: Db, now = new Date()): Promise<number> {
  const due = await db
    .selectDistinct({ network: chainTransactions.network, wallet: chainTransactions.wallet, nonce: chainTransactions.nonce })
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.status, "replaced"),
        isNull(chainTransactions.replacedById),
        isNotNull(chainTransactions.receiptRecheckAt),
        lte(chainTransactions.receiptRecheckAt, now),
      ),
    )
    .orderBy(asc(chainTransactions.network), asc(chainTransactions.wallet), asc(chainTransactions.nonce));
  let settled = 0;
  for (const ref of due) {
    if (!networkConfig(ref.network)) continue;
    try {
      if ((await rereadTakenNonce(db, ref, now)).state === "settled") settled++;
    } catch (error) {
      log.warn({ ...ref, err: errorText(error) }, "ledger: could not read a taken nonce's receipts again; retrying later");
    }
  }
  return settled;
}

/** Reads the receipts of a nonce settled as taken by another; settles it on a final one. */
export async function rereadTakenNonce(db: Db, ref: NonceRef, now = new Date()): Promise<Reread> {
  const rows = await nonceRows(db, ref);
  if (rows.length === 0) throw new Error(`no ledger transaction at nonce ${ref.nonce} of ${ref.wallet} on ${ref.network}`);
  if (rows.some((r) => r.status !== "replaced" || r.replacedById !== null)) {
    // Settled (or re-opened) some other way since: its re-reads are over. Throwing instead left the
    // nonce due, picked up and logged every round for ever.
    await setRecheckAt(db, ref, null, now);
    log.warn(
      { ...ref, statuses: rows.map((r) => r.status) },
      "ledger: a nonce due for a receipt re-read is no longer settled as taken by another transaction; its re-reads stop",
    );
    return { state: "not-taken" };
  }
  // biome-ignore lint/style/noNonNullAssertion: a network without configuration was skipped by every caller
  const finality = networkConfig(ref.network)!.finality;
  const landed = await landedReceipt(publicClientFor(ref.network), finality, rows);
  if (landed) {
    // biome-ignore lint/style/noNonNullAssertion: rows is not empty (checked above)
    const state = nonceStateOf(rows, rows.at(-1)!, rows);
    const fact = { kind: "receipt-read", rowId: landed.row.id, success: landed.receipt.status === "success", final: landed.final } as const;
    const decision = decideNonce(state, fact, now);
    if (decision.outcome === "mined") {
      await applyNonceDecision(db, rows, decision, landed, now);
      log.warn(
        { ...ref, txHash: landed.row.txHash, kind: landed.row.kind },
        "a nonce settled as taken by another transaction had our receipt after all (a receipts node behind): settled by it",
      );
      // biome-ignore lint/style/noNonNullAssertion: the decision made the row mined or reverted
      const outcome = knownOutcome(await nonceRows(db, ref))!;
      if (outcome.state === "settled") return { state: "settled", winner: outcome.winner };
    }
  }
  // biome-ignore lint/style/noNonNullAssertion: rows is not empty (checked above)
  const settledAt = rows[0]!.settledAt ?? now;
  const nextAt = nextRecheckAfterRead(settledAt, now, landed !== null);
  await setRecheckAt(db, ref, nextAt, now);
  return landed ? { state: "not-final", nextAt } : { state: "no-receipt", nextAt };
}

async function setRecheckAt(db: Db, ref: NonceRef, at: Date | null, now: Date): Promise<void> {
  await db
    .update(chainTransactions)
    .set({ receiptRecheckAt: at, updatedAt: now })
    .where(
      and(eq(chainTransactions.network, ref.network), eq(chainTransactions.wallet, ref.wallet), eq(chainTransactions.nonce, ref.nonce)),
    );
}

/**
 * `admin ledger resettle <network> <wallet> <nonce>`: reads the nonce's receipts now and settles
 * what they prove; refuses clearly, changing nothing, when there is nothing to settle.
 */
export async function resettleNonce(db: Db, args: { network: string; wallet: string; nonce: string }): Promise<string[]> {
  if (!networkConfig(args.network)) throw new AppError("VALIDATION_ERROR", `network ${args.network} is not configured`);
  if (!isAddress(args.wallet, { strict: false })) throw new AppError("VALIDATION_ERROR", `${args.wallet} is not an address`);
  if (!/^\d{1,15}$/.test(args.nonce)) throw new AppError("VALIDATION_ERROR", `${args.nonce} is not a nonce (a whole number)`);
  const ref = { network: args.network, wallet: getAddress(args.wallet), nonce: Number(args.nonce) };
  const rows = await nonceRows(db, ref);
  const what = `nonce ${ref.nonce} of ${ref.wallet} on ${ref.network}`;
  if (rows.length === 0) throw new AppError("NOT_FOUND", `no ledger transaction at ${what}`);
  const known = knownOutcome(rows);
  if (known?.state === "settled")
    throw new AppError(
      "VALIDATION_ERROR",
      `${what} is already settled: ${known.winner.kind} ${known.winner.txHash} ${known.winner.status} in block ${known.winner.minedBlock}; nothing to do`,
    );
  const hashes = rows.map((r) => `${r.kind} ${r.txHash}`).join(", ");
  if (known?.state === "taken-by-other") {
    const reread = await rereadTakenNonce(db, ref);
    if (reread.state === "settled") return settledLines(what, reread.winner);
    if (reread.state === "not-taken")
      throw new AppError("VALIDATION_ERROR", `${what} is not settled as taken by another transaction (${hashes}); nothing to do`);
    if (reread.state === "not-final")
      throw new AppError(
        "BLOCKCHAIN_ERROR",
        `${what}: a receipt was found but is not final yet (confirmation depth); run this again shortly`,
      );
    throw new AppError(
      "BLOCKCHAIN_ERROR",
      `${what}: no receipt of any of its transactions (${hashes}); it stays settled as taken by a transaction the service did not sign — check the wallet on an explorer`,
    );
  }
  const outcome = await settleNonce(db, ref, { rebroadcast: false });
  if (outcome.state === "settled") return settledLines(what, outcome.winner);
  if (outcome.state === "taken-by-other")
    return [`${what}: taken by a transaction the service did not sign; its receipts are read again for a day`];
  throw new AppError(
    "BLOCKCHAIN_ERROR",
    `${what} is still open (${hashes}): no final receipt yet; the ledger keeps settling it every round`,
  );
}

function settledLines(what: string, winner: ChainTransaction): string[] {
  return [
    `${what}: settled — ${winner.kind} ${winner.txHash} ${winner.status} in block ${winner.minedBlock}`,
    "the withdrawal, refund or forward that points at it takes this outcome at its next round",
  ];
}
