/**
 * One chunk of a payout batch, recorded: as many pending items as a block's gas limit allows
 * (payoutChunkSize) in one BatchPayer.pay transaction from the domain's withdrawal wallet, after an
 * approve of the chunk's total (and, once per chain, BatchPayer's deployment: batch-payer-deployment.ts).
 * The batch row is what its checks (validate-batch.ts, run once when it was recorded) passed on —
 * the wallet, the token, the items — and nothing of them is checked again here. A chunk takes the
 * steps of one transfer, with the same functions of lib/domain/transfers:
 *
 *   reserve  the account's lock, BatchPayer's deployment lock, the wallet's nonce row, in the one
 *            order of money-out-locks.ts; the wallet as of one block under them, its BNB covering
 *            the chunk's gas (and, for BNB itself, its value) net of its open sends (reserve-wallet.ts)
 *   record   the chunk's transactions signed at the wallet's next nonces (signFromWallet), in the
 *            database transaction that moves its items to `sending` (the batch's row locked last)
 *   send     sendPayoutChunk (send-batch.ts), through the same sendLedgerRow, once it has committed
 *
 * A wallet short of BNB for gas is topped up outside the transaction and the chunk reserved again
 * (withGasTopUps), as a withdrawal is. An item is in exactly one chunk, and a chunk's bytes are
 * only ever re-sent (by the ledger), never signed again with a new nonce.
 */

import { and, asc, eq, sql } from "drizzle-orm";
import type { Address } from "viem";
import { getConfig } from "../../base/config";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type ChainTransaction, type PayoutItem, payoutBatches, payoutItems, type Token, tokens } from "../../db/schema";
import {
  APPROVE_GAS,
  approveCalldata,
  BATCH_PAYER,
  BATCH_PAYER_DEPLOY_DATA,
  BATCH_PAYER_DEPLOY_GAS,
  payCalldata,
  payGasLimit,
  payNativeCalldata,
  payoutChunkSize,
} from "../../engine/chain/batch-payer";
import { signingGasPrice } from "../../engine/chain/gas-price";
import { isNativeToken } from "../../engine/chain/native";
import { publicClientFor } from "../../engine/chain/networks";
import { CREATE2_DEPLOYER } from "../../engine/chain/sweep-addresses";
import { lockAccountForMoneyOut, lockPayingWallet } from "../transfers/money-out-locks";
import { openSpend } from "../transfers/open-spend";
import { signFromWallet, type WalletSend } from "../transfers/record-transfer";
import { assertGasCovered, walletAtOneBlock } from "../transfers/reserve-wallet";
import { withGasTopUps } from "../transfers/send-transfer";
import { batchPayerDeployment, deployedAtConfirmedBlock } from "./batch-payer-deployment";
import { applyItemFacts } from "./payout-records";

/** The next chunk recorded — its rows, in nonce order, committed with its items moved to `sending` — or null when nothing is pending. */
export async function recordPayoutChunk(db: Db, batchId: string): Promise<ChainTransaction[] | null> {
  return withGasTopUps(db, () => recordChunkOnce(db, batchId));
}

async function recordChunkOnce(db: Db, batchId: string): Promise<ChainTransaction[] | null> {
  const [batch] = await db.select().from(payoutBatches).where(eq(payoutBatches.id, batchId));
  if (!batch || (batch.status !== "pending" && batch.status !== "sending")) return null;
  const [token] = await db.select().from(tokens).where(eq(tokens.id, batch.tokenId));
  if (!token) return null;
  const client = publicClientFor(batch.network);
  const from = batch.fromAddress as Address;
  const [block, code, gasPrice, firstCount] = await Promise.all([
    client.getBlock(),
    client.getCode({ address: BATCH_PAYER }),
    signingGasPrice(batch.network),
    client.getTransactionCount({ address: from }),
  ]);
  const size = payoutChunkSize(block.gasLimit, getConfig().payoutChunkSize);
  if ((await pendingItems(db, batchId, 1)).length === 0) return null;
  const native = isNativeToken(token.contractAddress);
  // BNB sent to BatchPayer's address while it holds no code would stay there for good: a BNB chunk
  // needs the contract at the confirmed block (a reorganisation cannot take it away).
  const undeployed = native ? !(await deployedAtConfirmedBlock(client, batch.network)) : !code || code === "0x";

  return db.transaction(async (tx) => {
    // Reserve, in the one lock order of money out: the account, BatchPayer's deployment, the wallet, the batch.
    await lockAccountForMoneyOut(tx, batch.userId);
    const deployment = undeployed ? await batchPayerDeployment(tx, client, batch.network, from) : "deployed";
    // Another wallet's deployment is not mined yet: its pay would reach no code. The job records this chunk once it is.
    if (deployment === "wait") return null;
    const deploy = deployment === "deploy";
    // BNB sent to BatchPayer's address before its code is there would stay there: a BNB chunk is
    // recorded only once the chain shows the contract (the deployment goes alone, and waits).
    if (native && undeployed && !deploy) return null;
    const deployOnly = native && undeployed;
    await lockPayingWallet(tx, batch.network, from, firstCount);
    const wallet = await walletAtOneBlock(token, from);
    const [locked] = await tx.select().from(payoutBatches).where(eq(payoutBatches.id, batchId)).for("no key update");
    if (!locked || (locked.status !== "pending" && locked.status !== "sending")) return null;
    // Under the batch's lock: another process may have taken these items meanwhile.
    const items = await pendingItems(tx, batchId, size);
    if (items.length === 0) return null;

    // The chunk's tokens were held for it since the batch was recorded (reserve-wallet.ts counts open
    // items): what is checked now is the BNB. For BNB itself the chunk's total leaves with the pay
    // transaction, beside its gas; for a token the chunk's approve, pay (and a deployment) need gas.
    const total = items.reduce((sum, item) => sum + item.amount, 0n);
    const value = native ? total : 0n;
    const chunkGas = [...(undeployed ? [BATCH_PAYER_DEPLOY_GAS] : []), ...(native ? [] : [APPROVE_GAS]), payGasLimit(items.length)].reduce(
      (sum, limit) => sum + limit * gasPrice,
      0n,
    );
    const open = await openSpend(tx, batch.network, from, wallet.chainCount);
    if (native && wallet.bnb - open.value - open.gas < value) {
      // The gas tank tops up gas, never the money itself: the chunk waits (the job tries again) until the wallet holds it.
      log.warn({ batchId, wallet: from }, "a BNB payout chunk waits: the wallet holds less BNB than the chunk and its open sends");
      return null;
    }
    // The tank sends gas only (the chunk's and the open sends'), never value a balance read mid-settlement seems to lack.
    assertGasCovered(
      wallet,
      { open, valueHeld: open.value },
      { network: batch.network, domainId: batch.domainId, from, value, ownGas: chunkGas },
    );

    // Record: the chunk's transactions at the wallet's next nonces, its items moved to `sending` with them.
    const sends = chunkSends(token, items, { deploy, deployOnly });
    const paying = { network: batch.network, domainId: batch.domainId, from, chainCount: wallet.chainCount, gasPrice };
    const rows = await signFromWallet(tx, paying, sends);
    if (deployOnly) return rows;
    // biome-ignore lint/style/noNonNullAssertion: `sends` ends with the pay transaction, so rows has it last
    const pay = rows.at(-1)!;
    // The chunk's gas is signed: what the batch held of the day's gas budget for it is released.
    const signedGas = sends.reduce((sum, send) => sum + send.gas * gasPrice, 0n);
    const more = await pendingItems(tx, batchId, size + 1);
    await tx
      .update(payoutBatches)
      .set({ gasReserved: more.length > items.length ? sql`greatest(${payoutBatches.gasReserved} - ${signedGas}, 0)` : 0n })
      .where(eq(payoutBatches.id, batchId));
    await applyItemFacts(
      tx,
      locked,
      items.map((item) => ({ item, fact: { kind: "recorded" } as const })),
      { chainTxId: pay.id, nonce: pay.nonce, txHash: pay.txHash },
    );
    return rows;
  });
}

/** The chunk's transactions in nonce order: BatchPayer's deployment (once per chain), then the approve and the pay (BNB: the pay alone, carrying the total). */
function chunkSends(token: Token, items: readonly PayoutItem[], at: { deploy: boolean; deployOnly: boolean }): WalletSend[] {
  const total = items.reduce((sum, item) => sum + item.amount, 0n);
  const recipients = items.map((item) => ({ to: item.toAddress as Address, amount: item.amount }));
  const contract = token.contractAddress as Address;
  const deploy: WalletSend[] = at.deploy
    ? [{ kind: "payout_deploy", to: CREATE2_DEPLOYER, data: BATCH_PAYER_DEPLOY_DATA, value: 0n, gas: BATCH_PAYER_DEPLOY_GAS }]
    : [];
  if (at.deployOnly) return deploy;
  const pay = { kind: "payout" as const, to: BATCH_PAYER, gas: payGasLimit(items.length) };
  if (isNativeToken(token.contractAddress)) return [...deploy, { ...pay, data: payNativeCalldata(recipients), value: total }];
  return [
    ...deploy,
    { kind: "payout_approve", to: contract, data: approveCalldata(total), value: 0n, gas: APPROVE_GAS },
    { ...pay, data: payCalldata(contract, recipients), value: 0n },
  ];
}

function pendingItems(db: Db, batchId: string, limit: number) {
  return db
    .select()
    .from(payoutItems)
    .where(and(eq(payoutItems.batchId, batchId), eq(payoutItems.status, "pending")))
    .orderBy(asc(payoutItems.position))
    .limit(limit);
}
