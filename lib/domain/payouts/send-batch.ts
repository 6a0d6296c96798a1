/**
 * Sending a payout batch through the ledger, one chunk at a time: as many items as a block's gas
 * limit allows (payoutChunkSize) go in one BatchPayer.pay transaction from the domain's withdrawal
 * wallet, after an approve of the chunk's total (and, once per chain, BatchPayer's deployment
 * through the CREATE2 deployer). The chunk's signed rows are recorded in the same database
 * transaction that moves its items to `sending`, so an item is in exactly one chunk and a chunk's
 * bytes are only ever re-sent (by the ledger), never signed again with a new nonce.
 *
 * Why approve + transferFrom and not an EIP-7702 delegation of the wallet: the wallet would have
 * to sign its own authorization, which takes a nonce of its own beside the transaction's (or one
 * of the gas tank's transactions would move the wallet's nonce): either way a nonce of the wallet's
 * ledger stream would be used outside it. Approve + pay keeps every nonce in the ledger, runs on
 * chains with and without EIP-7702 alike (classic and batched sweep modes), and costs one extra
 * approve per chunk.
 */

import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { type Address, type Hex, parseTransaction } from "viem";
import { getConfig } from "../../base/config";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type ChainTransaction, type ChainTransactionKind, chainTransactions, payoutBatches, payoutItems, tokens } from "../../db/schema";
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
import { confirmedBlock } from "../../engine/chain/confirmations";
import { signingGasPrice } from "../../engine/chain/gas-price";
import { isNativeToken } from "../../engine/chain/native";
import { networkConfig, publicClientFor } from "../../engine/chain/networks";
import { errorText } from "../../engine/chain/rpc-errors";
import { CREATE2_DEPLOYER } from "../../engine/chain/sweep-addresses";
import { broadcastRecorded } from "../../engine/ledger/broadcast";
import { chargeForDomainWallet } from "../../engine/ledger/charges";
import { ensureGasBalance } from "../../engine/ledger/gas-top-up";
import { replaceTransaction } from "../../engine/ledger/replace";
import { signAndRecord } from "../../engine/ledger/signing";
import { lockAccountForMoneyOut } from "../transfers/money-out-locks";
import { openSpend } from "../transfers/open-spend";
import { applyItemFacts } from "./payout-records";

/** Chunks one call records and sends at most (a batch of 500 needs a few on a small block). */
const MAX_CHUNKS_PER_CALL = 20;

/** Records and sends the batch's pending items, chunk after chunk; the number of chunks sent. Failures are left for the job. */
export async function sendPayoutBatch(db: Db, batchId: string): Promise<number> {
  let sent = 0;
  for (let round = 0; round < MAX_CHUNKS_PER_CALL; round++) {
    const rows = await recordPayoutChunk(db, batchId);
    if (rows === null) break;
    await sendPayoutChunk(db, rows);
    sent++;
  }
  return sent;
}

/** Resumes after a restart: every batch with pending items gets its chunks recorded and sent. */
export async function sendPendingPayouts(db: Db): Promise<number> {
  const open = await db
    .selectDistinct({ id: payoutBatches.id })
    .from(payoutBatches)
    .innerJoin(payoutItems, eq(payoutItems.batchId, payoutBatches.id))
    .where(and(inArray(payoutBatches.status, ["pending", "sending"]), eq(payoutItems.status, "pending")));
  let chunks = 0;
  for (const { id } of open) {
    try {
      chunks += await sendPayoutBatch(db, id);
    } catch (error) {
      log.warn({ batchId: id, err: errorText(error) }, "payout batch not sent this round; retrying");
    }
  }
  return chunks;
}

/**
 * First broadcast of a recorded chunk's rows, in nonce order (only ever their recorded bytes). A
 * node that refuses a row for good has its nonce filled (recorded first): the chunk then settles as not sent.
 */
export async function sendPayoutChunk(db: Db, rows: readonly ChainTransaction[]): Promise<void> {
  for (const row of rows) {
    const result = await broadcastRecorded(db, row);
    if (!result.sent && result.refusedForGood) await replaceTransaction(db, row, "cancel");
  }
}

/** The next chunk recorded — its rows, in nonce order, committed with its items moved to `sending` — or null when nothing is pending. */
export async function recordPayoutChunk(db: Db, batchId: string): Promise<ChainTransaction[] | null> {
  const [batch] = await db.select().from(payoutBatches).where(eq(payoutBatches.id, batchId));
  if (!batch || (batch.status !== "pending" && batch.status !== "sending")) return null;
  const [token] = await db.select().from(tokens).where(eq(tokens.id, batch.tokenId));
  if (!token) return null;
  const client = publicClientFor(batch.network);
  const from = batch.fromAddress as Address;
  const [block, code, gasPrice, chainCount, bnb] = await Promise.all([
    client.getBlock(),
    client.getCode({ address: BATCH_PAYER }),
    signingGasPrice(batch.network),
    client.getTransactionCount({ address: from }),
    client.getBalance({ address: from }),
  ]);
  const size = payoutChunkSize(block.gasLimit, getConfig().payoutChunkSize);
  const peek = await pendingItems(db, batchId, size);
  if (peek.length === 0) return null;
  const native = isNativeToken(token.contractAddress);
  // BNB sent to BatchPayer's address while it holds no code would stay there for good: a BNB chunk
  // needs the contract at the confirmed block (a reorganisation cannot take it away).
  const undeployed = native ? !(await deployedAtConfirmedBlock(client, batch.network)) : !code || code === "0x";
  const limits = [...(undeployed ? [BATCH_PAYER_DEPLOY_GAS] : []), ...(native ? [] : [APPROVE_GAS]), payGasLimit(peek.length)];
  // BNB itself: the chunk's total leaves with the pay transaction, beside its gas (the batch was recorded only if the wallet held it).
  const value = native ? peek.reduce((sum, item) => sum + item.amount, 0n) : 0n;
  const open = await openSpend(db, batch.network, from, chainCount);
  const chunkGas = limits.reduce((sum, l) => sum + l * gasPrice, 0n);
  const needed = chunkGas + value + open.gas + open.value;
  if (native && bnb < value + open.value + open.gas) {
    // The gas tank tops up gas, never the money itself: the chunk waits (the job tries again) until the wallet holds it.
    log.warn({ batchId, wallet: from }, "a BNB payout chunk waits: the wallet holds less BNB than the chunk and its open sends");
    return null;
  }
  if (bnb < needed) {
    // Outside every transaction: a broadcast top-up must never be rolled back.
    // The tank sends gas only (chunkGas + open.gas at most), never value a balance read mid-settlement seems to lack.
    await ensureGasBalance(db, batch.network, from, needed, await chargeForDomainWallet(db, batch.domainId), chunkGas + open.gas);
  }

  return db.transaction(async (tx) => {
    await lockAccountForMoneyOut(tx, batch.userId); // first: the one lock order of money out
    const [locked] = await tx.select().from(payoutBatches).where(eq(payoutBatches.id, batchId)).for("no key update");
    if (!locked || (locked.status !== "pending" && locked.status !== "sending")) return null;
    // Under the batch's lock: another process may have taken these items meanwhile.
    const items = await pendingItems(tx, batchId, size);
    if (items.length === 0) return null;
    const deployment = undeployed ? await batchPayerDeployment(tx, client, batch.network, from) : "deployed";
    // Another wallet's deployment is not mined yet: its pay would reach no code. The job records this chunk once it is.
    if (deployment === "wait") return null;
    const deploy = deployment === "deploy";
    // BNB sent to BatchPayer's address before its code is there would stay there: a BNB chunk is
    // recorded only once the chain shows the contract (the deployment goes alone, and waits).
    if (native && undeployed && !deploy) return null;
    const deployOnly = native && undeployed;
    const total = items.reduce((sum, item) => sum + item.amount, 0n);
    // The domain's withdrawal wallet (its key index is the domain's id), at the address the batch was recorded with.
    const wallet = { role: "withdrawal", index: batch.domainId, address: from } as const;
    const recipients = items.map((item) => ({ to: item.toAddress as Address, amount: item.amount }));
    const wanted: { kind: ChainTransactionKind; to: Address; data: Hex; value: bigint; gas: bigint }[] = [
      ...(deploy
        ? [{ kind: "payout_deploy" as const, to: CREATE2_DEPLOYER, data: BATCH_PAYER_DEPLOY_DATA, value: 0n, gas: BATCH_PAYER_DEPLOY_GAS }]
        : []),
      ...(deployOnly
        ? []
        : native
          ? [
              {
                kind: "payout" as const,
                to: BATCH_PAYER,
                data: payNativeCalldata(recipients),
                value: total,
                gas: payGasLimit(items.length),
              },
            ]
          : [
              {
                kind: "payout_approve" as const,
                to: token.contractAddress as Address,
                data: approveCalldata(total),
                value: 0n,
                gas: APPROVE_GAS,
              },
              {
                kind: "payout" as const,
                to: BATCH_PAYER,
                data: payCalldata(token.contractAddress as Address, recipients),
                value: 0n,
                gas: payGasLimit(items.length),
              },
            ]),
    ];
    const rows: ChainTransaction[] = [];
    for (const w of wanted) {
      rows.push(
        await signAndRecord(tx, {
          network: batch.network,
          wallet,
          kind: w.kind,
          chainCount,
          transaction: { type: "legacy", to: w.to, data: w.data, value: w.value, gas: w.gas, gasPrice },
        }),
      );
    }
    if (deployOnly) return rows;
    // biome-ignore lint/style/noNonNullAssertion: `wanted` ends with the pay transaction, so rows has it last
    const pay = rows.at(-1)!;
    // The chunk's gas is signed: what the batch held of the day's gas budget for it is released.
    const signedGas = wanted.reduce((sum, w) => sum + w.gas * gasPrice, 0n);
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

/**
 * Whether this chunk deploys BatchPayer (once per chain). Under a per-network lock: the
 * chain says whether it is there (a deployment mined since the caller looked), else a deployment of
 * this version in the ledger and not yet mined is never signed again (a second one reverts and burns
 * its gas) — one from this same wallet comes before this chunk in its nonce order, so the chunk goes
 * on; one from another wallet makes the chunk wait. Deployments of another version (BatchPayer v1,
 * whose ledger rows an upgraded install keeps) deploy nothing of this one and do not count.
 */
async function batchPayerDeployment(
  tx: Db,
  client: ReturnType<typeof publicClientFor>,
  network: string,
  from: Address,
): Promise<"deploy" | "deployed" | "wait"> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`bsc-pay:deploy-batch-payer:${network}`}))`);
  const code = await client.getCode({ address: BATCH_PAYER });
  if (code && code !== "0x") return "deployed";
  const pending = await tx
    .select({ wallet: chainTransactions.wallet, rawTx: chainTransactions.rawTx })
    .from(chainTransactions)
    .where(
      and(eq(chainTransactions.network, network), eq(chainTransactions.kind, "payout_deploy"), eq(chainTransactions.status, "pending")),
    );
  const ofThisVersion = pending.filter(
    (row) => row.rawTx !== null && parseTransaction(row.rawTx as Hex).data?.toLowerCase() === BATCH_PAYER_DEPLOY_DATA.toLowerCase(),
  );
  if (ofThisVersion.length === 0) return "deploy";
  return ofThisVersion.some((row) => row.wallet.toLowerCase() === from.toLowerCase()) ? "deployed" : "wait";
}

/** BatchPayer's code at the network's confirmed block (the depth its ledger rows are final at). */
async function deployedAtConfirmedBlock(client: ReturnType<typeof publicClientFor>, network: string): Promise<boolean> {
  const config = networkConfig(network);
  if (!config) return false;
  const blockNumber = await confirmedBlock(client, config.finality);
  const code = await client.getCode({ address: BATCH_PAYER, blockNumber });
  return Boolean(code && code !== "0x");
}

function pendingItems(db: Db, batchId: string, limit: number) {
  return db
    .select()
    .from(payoutItems)
    .where(and(eq(payoutItems.batchId, batchId), eq(payoutItems.status, "pending")))
    .orderBy(asc(payoutItems.position))
    .limit(limit);
}
