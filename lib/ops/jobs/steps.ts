/**
 * The engine's job steps: what one round of each job does (schedule.ts declares the jobs), the
 * same under both drivers — the embedded runner calls them in its loops, each Inngest function
 * wraps them in step.run. Each is idempotent and reads what is left to do from the database, so a
 * step that is cut off and run again resumes where it stopped.
 */

import { errorText } from "../../base/error-text";
import { log } from "../../base/log";
import { metrics } from "../../base/metrics";
import type { Db } from "../../db";
import { expireApprovals } from "../../domain/approvals/decide";
import { applyDuePayoutChanges } from "../../domain/merchant-domains/payout-change";
import type { AttemptOutcome, ChannelClaim } from "../../domain/notifications/channel";
import { attemptNotification, claimDueNotifications } from "../../domain/notifications/delivery";
import { nativePollPorts, scanPorts, wireEngine } from "../../domain/payments/engine-ports";
import { expireDueSessions } from "../../domain/payments/expire-due";
import { REPRICE_PAGE, repriceLateDeposits } from "../../domain/payments/reprice-late";
import { sendPendingPayouts } from "../../domain/payouts/send-batch";
import { settlePayoutBatches } from "../../domain/payouts/settle-batches";
import { sendAwaitingRefunds } from "../../domain/refunds/awaiting-funds";
import { settleRefundOf, settleRefundsOfSettledPayouts } from "../../domain/refunds/refund-payouts";
import { confirmWithdrawals } from "../../domain/withdrawals/confirm-withdrawals";
import { listNetworks } from "../../engine/chain/networks";
import { settleOpenTankTransactions } from "../../engine/forwarding/batched/tank-transactions";
import { planFlaggedDeposits, type QueuedForward } from "../../engine/forwarding/forward-plan";
import { askAgainAt } from "../../engine/forwarding/forward-schedule";
import { advanceForward, dueForwards, type ForwardOutcome } from "../../engine/forwarding/forwarder";
import { tendLedger } from "../../engine/ledger/watchdog";
import { publicScanError, recordScanError } from "../../engine/scanner/cursor";
import { type NativePollResult, pollNativeBalances } from "../../engine/scanner/native-balance-poll";
import { scanOnce } from "../../engine/scanner/scanner";
import { lastReconciliation, reconcile, saveReconciliation } from "../custody/reconcile";
import { SCHEDULE } from "./schedule";

// The engine's ports (the deposit book, who pays for gas, the dust-sweep gate), wired wherever these steps run.
wireEngine();

export interface ScanStepResult {
  network: string;
  /** The head the poll read (null: the network's confirmed head is below its first block). */
  head: number | null;
  /** The block the network is scanned up to after this poll (null: nothing scanned yet). */
  scannedTo: number | null;
  behind: number;
  transfers: number;
  forwards: QueuedForward[];
}

/**
 * One range of one network, then the sweeps its deposits made due (planned after the scan's
 * commit, so detection never waits for planning); call again while `behind` > 0.
 */
export async function scanNetworkStep(db: Db, network: string): Promise<ScanStepResult> {
  const endTimer = metrics().scanDuration.startTimer({ network });
  try {
    const result = await scanOnce(db, network, scanPorts);
    endTimer();
    const forwards = result && result.transfers > 0 ? await planFlaggedDeposits(db, network) : [];
    return {
      network,
      head: result ? Number(result.head) : null,
      scannedTo: result ? Number(result.toBlock) : null,
      behind: result ? Number(result.behind) : 0,
      transfers: result?.transfers ?? 0,
      forwards,
    };
  } catch (error) {
    metrics().scanErrors.inc({ network });
    await recordScanError(db, network, error).catch(() => {});
    throw error;
  }
}

export function configuredNetworks(): string[] {
  return listNetworks().map((n) => n.name);
}

/** One round of the scan job over every network (a step's output: small, JSON). */
export interface ScanRoundResult {
  /** Transfers recorded in this round, over every network. */
  seen: number;
  /** The sweeps the round's deposits made due. */
  forwards: QueuedForward[];
  /** Networks still behind the confirmed head once their page of ranges was used. */
  behind: string[];
  /** Networks whose scan failed this round, with the error as /api/health shows it (also recorded on the network's cursor). */
  failed: { network: string; error: string }[];
}

/**
 * One round of the scan job: each network in turn takes its next ranges while it is behind, at
 * most `ranges` of them (the schedule's page). A network whose scan throws is skipped until the
 * next round — its error recorded by scanNetworkStep — and the round goes on with the others.
 * `afterRange` sees each range as it is done (the embedded runner sends new payments' webhooks at once).
 */
export async function scanRoundStep(
  db: Db,
  ranges: number,
  options: { networks?: string[]; afterRange?: (result: ScanStepResult) => void } = {},
): Promise<ScanRoundResult> {
  const round: ScanRoundResult = { seen: 0, forwards: [], behind: [], failed: [] };
  for (const network of options.networks ?? configuredNetworks()) {
    try {
      let last: ScanStepResult | null = null;
      for (let range = 0; range < ranges; range++) {
        last = await scanNetworkStep(db, network);
        round.seen += last.transfers;
        round.forwards.push(...last.forwards);
        options.afterRange?.(last);
        if (SCHEDULE.scan.pause[last.behind > 0 ? "behind" : "caught-up"] !== "at-once") break;
      }
      if (last && last.behind > 0) round.behind.push(network);
      else if (last?.scannedTo != null) {
        // Caught up: BNB that contracts sent is read from balances at the block just scanned (when due).
        const polled = await nativeBalancesStep(db, network, BigInt(last.scannedTo));
        if (polled.transfers > 0) {
          round.seen += polled.transfers;
          round.forwards.push(...polled.forwards);
          options.afterRange?.({ ...last, transfers: polled.transfers, forwards: polled.forwards });
        }
      }
    } catch (error) {
      round.failed.push({ network, error: publicScanError(error) });
      log.warn({ network, err: errorText(error) }, "scan failed; retrying next round, the other networks go on");
    }
  }
  return round;
}

/**
 * The BNB balance poll of one network at `atBlock` (a block the scanner has read up to), when due
 * (every NATIVE_POLL_EVERY_BLOCKS blocks), then the sweeps its deposits made due. A failed poll is
 * logged and tried again next round: the scan's own result stands.
 */
export async function nativeBalancesStep(
  db: Db,
  network: string,
  atBlock: bigint,
): Promise<{ transfers: number; forwards: QueuedForward[]; result: NativePollResult | null }> {
  try {
    const result = await pollNativeBalances(db, network, { atBlock, ...nativePollPorts });
    const forwards = result.recorded > 0 ? await planFlaggedDeposits(db, network) : [];
    return { transfers: result.recorded, forwards, result };
  } catch (error) {
    log.warn({ network, err: errorText(error) }, "BNB balance poll failed; retrying next round");
    return { transfers: 0, forwards: [], result: null };
  }
}

export async function expireDueStep(db: Db): Promise<number> {
  // Payout changes past their date are folded here too (and announced): sessions already honour
  // the date on their own (payout-change.ts), so only the record and its webhook wait for this.
  await applyDuePayoutChanges(db);
  const expired = await expireDueSessions(db);
  // Then a page of late deposits of expired fiat sessions, re-priced at their block's rate (one feed read each).
  await repriceLateDeposits(db, { limit: REPRICE_PAGE });
  return expired;
}

/** Backstop for a crash between recording and planning: plans whatever is still flagged. */
export async function planForwardsStep(db: Db): Promise<QueuedForward[]> {
  const planned: QueuedForward[] = [];
  for (const network of configuredNetworks()) planned.push(...(await planFlaggedDeposits(db, network)));
  return planned;
}

export async function dueForwardsStep(db: Db, limit = 50): Promise<QueuedForward[]> {
  return dueForwards(db, limit);
}

/** What a forward's step did, and when to ask again (ISO, so that a driver can keep it as a step's output; null once completed or held). */
export interface ForwardStepResult {
  outcome: ForwardOutcome;
  askAgainAt: string | null;
}

/**
 * One step of one forward, if it is due (else "not-due", nothing done). The embedded runner asks
 * again on its own tick through dueForwards; a driver that sleeps between steps sleeps until
 * `askAgainAt`: both follow the forward's recorded schedule.
 */
export async function forwardStep(db: Db, forwardId: number): Promise<ForwardStepResult> {
  const { outcome, dueAt } = await advanceForward(db, forwardId);
  if (outcome === "held") log.error({ forwardId }, "forward held: needs the operator (npm run admin -- forwards held)");
  const finished = SCHEDULE.forward.pause[outcome] === "done";
  return { outcome, askAgainAt: finished ? null : askAgainAt(dueAt, new Date()).toISOString() };
}

/**
 * The tend-ledger job's round: the ledger's (every open transaction settled or sent again, stuck
 * wallets re-priced), sweep-contract deployments and cancels re-broadcast, then submitted
 * withdrawals → completed / failed, then payout chunks settled and pending payout items sent.
 */
export async function tendLedgerStep(db: Db): Promise<{ completed: number; failed: number; pending: number }> {
  await tendLedger(db);
  await settleOpenTankTransactions(db);
  // A refund follows its payout: settled in the transaction that settles the withdrawal.
  const settled = await confirmWithdrawals(db, { onSettled: settleRefundOf });
  await settleRefundsOfSettledPayouts(db);
  // Payout batches: chunks settled from the ledger, then anything still pending (after a restart) sent.
  await settlePayoutBatches(db);
  await sendPendingPayouts(db);
  return settled;
}

/** Leases the notifications (webhook deliveries) that are due (each is then sent by deliverWebhookStep). */
export async function claimWebhooksStep(db: Db, limit = 100, leaseMs?: number): Promise<ChannelClaim[]> {
  return claimDueNotifications(db, limit, { leaseMs });
}

export async function deliverWebhookStep(db: Db, claim: ChannelClaim): Promise<AttemptOutcome> {
  return attemptNotification(db, claim);
}

/** Reconciles when the last run is older than `everyMs` (restarts do not re-run it); returns the differences, or null when not due. */
export async function reconcileIfDueStep(
  db: Db,
  everyMs: number = SCHEDULE.reconcile.embedded.minGapMs,
  now = new Date(),
): Promise<number | null> {
  const last = await lastReconciliation(db);
  if (last && now.getTime() - Date.parse(last.ranAt) < everyMs) return null;
  const result = await reconcile(db);
  await saveReconciliation(db, result);
  if (result.differences.length > 0)
    log.warn({ differences: result.differences.length }, "reconciliation found differences: npm run admin -- reconcile");
  return result.differences.length;
}

/** Refunds awaiting funds: each sent once its wallet can pay (a page, longest-unchecked first). */
export async function sendAwaitingRefundsStep(db: Db, limit: number): Promise<{ sent: number; waiting: number }> {
  const { sent, waiting } = await sendAwaitingRefunds(db, { limit });
  return { sent, waiting };
}

/** Money-out approvals past their 72 h: expired, their subjects rejected (a page, oldest first). */
export async function expireApprovalsStep(db: Db, limit: number, now = new Date()): Promise<number> {
  return expireApprovals(db, now, limit);
}
