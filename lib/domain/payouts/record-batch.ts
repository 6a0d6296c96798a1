/**
 * Recording a payout batch (docs/design.md §24): the whole request is validated (validate-batch.ts)
 * before anything is written — every bad item is named by `items.<index>.<field>` and nothing is recorded — and the
 * wallet must hold the total, net of what its open withdrawals and payouts will still take. The
 * batch is recorded `pending` (the sender picks it up) or `awaiting_approval` (the approvals work
 * releases or rejects it; nothing reaches the ledger before).
 */

import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { type PayoutBatch, payoutBatches } from "../../db/schema";
import { BATCH_PAYER, batchGasUnits, payoutChunkSize } from "../../engine/chain/batch-payer";
import { signingGasPrice } from "../../engine/chain/gas-price";
import { isNativeToken } from "../../engine/chain/native";
import { publicClientFor } from "../../engine/chain/networks";
import { serviceAddresses } from "../../engine/chain/wallet-addresses";
import { approvalNeeded } from "../approval-requests/approval-needed";
import { requestApproval } from "../approval-requests/approval-records";
import { assertMayWithdraw } from "../gas/limits";
import { lockAccountForMoneyOut, lockPayingWallet } from "../transfers/money-out-locks";
import { assertWalletCovers, walletAtOneBlock } from "../transfers/reserve-wallet";
import { rpc } from "../transfers/transfer-errors";
import { applyBatchFact, insertPayoutBatch } from "./payout-records";
import { payoutBatchRefusal } from "./reasons";
import type { PayoutRequestInput } from "./schemas";
import { type CheckedPayoutBatch, checkPayoutBatch } from "./validate-batch";

/** Who asks: the account (today the merchant's user id), the API key (null: the dashboard), the member (the key's creator for a key). */
export interface PayoutRequester {
  accountId: number;
  apiKeyId: number | null;
  requestedBy: number | null;
}

/** Records the batch in `db`'s transaction (its own when `db` is the pool); throws before writing anything when any item is bad. */
export async function recordPayoutBatch(
  db: Db,
  requester: PayoutRequester,
  input: PayoutRequestInput,
  /**
   * `awaitingApproval`: recorded waiting, whatever the thresholds; `approvalsApply`: waits when the
   * account's approval thresholds say so (lib/domain/approval-requests), with its approval request in
   * the same transaction.
   */
  options: RecordOptions,
): Promise<PayoutBatch> {
  const checked = await checkPayoutBatch(db, requester.accountId, input);
  const { details } = checked;
  if (details.length > 0) {
    const first = details[0];
    throw payoutBatchRefusal(
      "VALIDATION_ERROR",
      "payout-items-invalid",
      `${details.length} of ${input.items.length} items are invalid (first: ${first?.path} ${first?.message}); nothing was recorded`,
      details,
    );
  }
  return recordCheckedBatch(db, requester, checked, options);
}

export interface RecordOptions {
  awaitingApproval: boolean;
  approvalsApply?: boolean;
}

/**
 * Records a batch already checked (checkPayoutBatch, every item good: the dashboard's review has
 * one) without checking it again: the reserve step of lib/domain/transfers (the account's lock, the
 * wallet's, the wallet covering the total net of its open sends: reserve-wallet.ts), then the batch
 * and its items. Its chunks are signed and sent later (record-chunk.ts, send-batch.ts).
 */
export async function recordCheckedBatch(
  db: Db,
  requester: PayoutRequester,
  checked: CheckedPayoutBatch,
  options: RecordOptions,
): Promise<PayoutBatch> {
  if (checked.details.length > 0) throw new Error("a payout batch with bad items is never recorded");
  const userId = requester.accountId;
  const { domain, token, items } = checked;
  const total = items.reduce((sum, item) => sum + item.amount, 0n);
  const from = serviceAddresses().withdrawal(domain.id);
  const client = publicClientFor(token.network);
  const gasEstimate = await estimateBatchGas(token.network, items.length, isNativeToken(token.contractAddress));

  return db.transaction(async (tx) => {
    // The account's lock first, then the per-day threshold's, then the wallet's (lib/domain/transfers/money-out-locks.ts).
    await lockAccountForMoneyOut(tx, userId);
    const waits =
      options.awaitingApproval || (options.approvalsApply === true && (await approvalNeeded(tx, userId, token.id, total)).needed);
    // Each item counts as a withdrawal of the day; the chunks' estimated gas is held against the budget.
    await assertMayWithdraw(tx, userId, { checkGasBudget: true, transfers: items.length, gasEstimate });
    const firstCount = await rpc(() => client.getTransactionCount({ address: from }));
    await lockPayingWallet(tx, token.network, from, firstCount);
    // The total, net of what the wallet's open withdrawals and payouts will still take (BNB itself:
    // also what their gas needs). Its items then hold it until their chunk is mined.
    await assertWalletCovers(tx, { token, from, units: total }, await walletAtOneBlock(token, from));
    const batch = await insertPayoutBatch(
      tx,
      {
        id: randomUUID(),
        userId,
        apiKeyId: requester.apiKeyId,
        requestedBy: requester.requestedBy,
        domainId: domain.id,
        tokenId: token.id,
        network: token.network,
        fromAddress: from,
        total,
        itemCount: items.length,
        gasReserved: gasEstimate,
      },
      items,
      waits,
    );
    if (waits && options.approvalsApply)
      await requestApproval(tx, {
        accountId: userId,
        kind: "payout",
        subjectId: batch.id,
        domainId: domain.id,
        tokenId: token.id,
        amount: total,
        requestedBy: { userId: requester.requestedBy, apiKeyId: requester.apiKeyId },
      });
    return batch;
  });
}

/**
 * The wei a batch of `items` is estimated to cost: its chunks as the chain's blocks hold them now,
 * BatchPayer's deployment if the chain lacks it, at the price the service would sign at now.
 */
async function estimateBatchGas(network: string, items: number, native: boolean): Promise<bigint> {
  const client = publicClientFor(network);
  const [block, code, gasPrice] = await rpc(() =>
    Promise.all([client.getBlock(), client.getCode({ address: BATCH_PAYER }), signingGasPrice(network)]),
  );
  const size = payoutChunkSize(block.gasLimit, getConfig().payoutChunkSize);
  return batchGasUnits(items, size, { native, deploy: !code || code === "0x" }) * gasPrice;
}

/** awaiting_approval → pending: the sender (sendPayoutBatch, or the tend-ledger job) takes it from here. */
export async function releasePayoutBatch(db: Db, batchId: string): Promise<PayoutBatch> {
  return decideApproval(db, batchId, { kind: "release" }, null);
}

/** awaiting_approval → rejected (final): its items fail without ever reaching the ledger. */
export async function rejectPayoutBatch(db: Db, batchId: string, reason: string): Promise<PayoutBatch> {
  return decideApproval(db, batchId, { kind: "reject" }, reason.slice(0, 500));
}

async function decideApproval(db: Db, batchId: string, fact: { kind: "release" | "reject" }, reason: string | null): Promise<PayoutBatch> {
  return db.transaction(async (tx) => {
    const [batch] = await tx.select().from(payoutBatches).where(eq(payoutBatches.id, batchId)).for("no key update");
    if (!batch) throw payoutBatchRefusal("NOT_FOUND", "payout-batch-not-found", `payout batch ${batchId} not found`);
    const updated = await applyBatchFact(tx, batch, fact, reason);
    if (!updated)
      throw payoutBatchRefusal(
        "VALIDATION_ERROR",
        "payout-batch-not-awaiting-approval",
        `payout batch ${batchId} is ${batch.status}, not awaiting approval`,
      );
    return updated;
  });
}
