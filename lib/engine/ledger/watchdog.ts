/**
 * Job step over the whole ledger: every open nonce is settled (or its bytes sent again), and the
 * nonce that blocks each wallet is watched — re-priced or filled as decide.ts says, and marked
 * stuck (stuck_since) while it is, so /api/health, `admin status` and the metric show it.
 */

import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { chainTransactions } from "../../db/schema/engine";
import { networkConfig } from "../chain/networks";
import { errorText } from "../chain/rpc-errors";
import { decideNonce, isStalled } from "./decide";
import { nonceStateOf } from "./nonce-records";
import { recheckTakenNonces } from "./recheck";
import { replaceTransaction } from "./replace";
import { type NonceOutcome, settleNonce } from "./settle";

export interface LedgerRound {
  open: number;
  settled: number;
  replaced: number;
  stalled: number;
  /** Nonces settled as taken by another that a late receipt settled after all (recheck.ts). */
  resettled: number;
}

export async function tendLedger(db: Db, now = new Date()): Promise<LedgerRound> {
  const groups = await db
    .selectDistinct({ network: chainTransactions.network, wallet: chainTransactions.wallet, nonce: chainTransactions.nonce })
    .from(chainTransactions)
    .where(eq(chainTransactions.status, "pending"))
    .orderBy(asc(chainTransactions.network), asc(chainTransactions.wallet), asc(chainTransactions.nonce));
  const round: LedgerRound = { open: 0, settled: 0, replaced: 0, stalled: 0, resettled: 0 };
  for (const group of groups) {
    if (!networkConfig(group.network)) continue;
    try {
      const outcome = await settleNonce(db, group);
      if (outcome.state !== "open") {
        round.settled++;
        continue;
      }
      round.open++;
      const watched = await watchNonce(db, outcome, now);
      if (watched.stalled) round.stalled++;
      if (watched.replaced) round.replaced++;
    } catch (error) {
      log.warn(
        { network: group.network, wallet: group.wallet, nonce: group.nonce, err: errorText(error) },
        "ledger: could not settle a nonce yet; retrying",
      );
    }
  }
  round.resettled = await recheckTakenNonces(db, now);
  return round;
}

async function watchNonce(db: Db, outcome: NonceOutcome & { state: "open" }, now: Date): Promise<{ stalled: boolean; replaced: boolean }> {
  const { rows, newest, atWalletNext } = outcome;
  // biome-ignore lint/style/noNonNullAssertion: settleNonce answers "open" only for a nonce with rows (it throws when there are none)
  const first = rows[0]!;
  const stalled = isStalled(atWalletNext, first.createdAt, now);
  const openRows = rows.filter((r) => r.status === "pending");
  const openIds = openRows.map((r) => r.id);
  await db
    .update(chainTransactions)
    .set({ stuckSince: stalled ? first.createdAt : null })
    .where(
      and(
        inArray(chainTransactions.id, openIds),
        stalled ? sql`${chainTransactions.stuckSince} is null` : isNotNull(chainTransactions.stuckSince),
      ),
    );
  const { outcome: action } = decideNonce(nonceStateOf(openRows, newest, rows), { kind: "still-open", atWalletNext }, now);
  if (action === "reprice" || action === "cancel") {
    const replacement = await replaceTransaction(db, newest, action);
    return { stalled, replaced: replacement !== null };
  }
  if (action === "wait-for-operator" && stalled) {
    log.error(
      { network: newest.network, wallet: newest.wallet, nonce: newest.nonce, kind: newest.kind },
      "a wallet's next nonce is stuck and replacing it is used up: it needs the operator",
    );
  }
  return { stalled, replaced: false };
}

export interface WalletStall {
  network: string;
  wallet: string;
  walletRole: string;
  nonce: number;
  kind: string;
  since: Date;
}

/** Wallets whose next nonce is stuck now, as the last ledger round saw them. */
export async function walletStalls(db: Db): Promise<WalletStall[]> {
  const rows = await db
    .select({
      network: chainTransactions.network,
      wallet: chainTransactions.wallet,
      walletRole: chainTransactions.walletRole,
      nonce: chainTransactions.nonce,
      kind: chainTransactions.kind,
      replacesId: chainTransactions.replacesId,
      since: chainTransactions.stuckSince,
    })
    .from(chainTransactions)
    .where(and(eq(chainTransactions.status, "pending"), isNotNull(chainTransactions.stuckSince)))
    .orderBy(asc(chainTransactions.stuckSince), asc(chainTransactions.id));
  const stalls = new Map<string, WalletStall>();
  for (const row of rows) {
    const key = `${row.network} ${row.wallet}`;
    // The kind is the original's: a re-priced top-up is still a top-up, a cancel names what it fills.
    if (!stalls.has(key))
      stalls.set(key, {
        network: row.network,
        wallet: row.wallet,
        walletRole: row.walletRole,
        nonce: row.nonce,
        kind: row.kind,
        // biome-ignore lint/style/noNonNullAssertion: the query keeps only rows whose stuck_since is not null
        since: row.since!,
      });
  }
  return [...stalls.values()];
}
