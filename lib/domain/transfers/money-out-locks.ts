/**
 * The one lock order of money out. Every transaction that records money leaving a
 * withdrawal wallet — a withdrawal (API or dashboard), a refund (created, claimed, sent once funds
 * arrive), a payout batch (recorded, or one of its chunks signed), and the approval or rejection of
 * any of them — takes its locks in this order, and only the ones it needs:
 *
 *   1. the account's row (`users`)                      lockAccountForMoneyOut, the first statement
 *   2. the account's approval day of the token          approval-requests/approval-needed.ts (advisory)
 *   3. the approval being decided                       approval-requests/approval-records.ts
 *   4. BatchPayer's deployment on the network           payouts/batch-payer-deployment.ts (advisory, chunks only)
 *   5. the paying wallet's nonce row (`wallet_nonces`)  lockPayingWallet, then signAndRecord (engine/ledger/signing.ts)
 *   6. the payment, then its refund; a payout batch     refunds/refund-rules.ts, refund-records.ts, payouts/record-chunk.ts
 *
 * Taking the account first serialises one account's money out, so two requests of one account can
 * never hold each other's next lock; requests of different accounts share no row (wallets, payments,
 * refunds and batches are an account's own). The gas tank's nonce is taken only outside these
 * transactions (a top-up commits and is broadcast on its own).
 *
 * Row locks are `FOR NO KEY UPDATE`, never `FOR UPDATE`: inserting a row whose foreign key names a
 * locked row (an idempotency record names the account, a refund its payment, a withdrawal its refund,
 * a deposit its payment) takes a KEY SHARE lock on it, which `FOR UPDATE` conflicts with and `FOR NO
 * KEY UPDATE` does not. With `FOR UPDATE` here, a request that had written its idempotency record
 * (key share on the account) and waited for the wallet deadlocked with one that held the wallet and
 * asked for the account (tests/integration/money-out-concurrency.test.ts, 20 mixed sends at once).
 */

import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { users } from "../../db/schema";
import { lockWalletNonce } from "../../engine/ledger/signing";

/** Step 1: the account's row, until the transaction ends. Taking it again in the same transaction is free. */
export async function lockAccountForMoneyOut(tx: Db, accountId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, accountId)).for("no key update");
}

/**
 * Step 5: the paying wallet's nonce row (created at the chain's count if it has none), so the
 * balances read under it see every payout of this wallet recorded before.
 */
export async function lockPayingWallet(tx: Db, network: string, address: string, chainCount: number): Promise<void> {
  await lockWalletNonce(tx, network, address, chainCount);
}
