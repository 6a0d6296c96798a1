/**
 * BatchPayer, once per chain: whether a payout chunk deploys it (through the CREATE2 deployer),
 * finds it deployed, or waits for another wallet's deployment to be mined (record-chunk.ts).
 */

import { and, eq, sql } from "drizzle-orm";
import { type Address, type Hex, parseTransaction } from "viem";
import type { Db } from "../../db";
import { chainTransactions } from "../../db/schema";
import { BATCH_PAYER, BATCH_PAYER_DEPLOY_DATA } from "../../engine/chain/batch-payer";
import { confirmedBlock } from "../../engine/chain/confirmations";
import { networkConfig, type publicClientFor } from "../../engine/chain/networks";

type Client = ReturnType<typeof publicClientFor>;

/**
 * Whether this chunk deploys BatchPayer (once per chain). Under a per-network lock (step 4 of
 * lib/domain/transfers/money-out-locks.ts): the chain says whether it is there (a deployment mined
 * since the caller looked), else a deployment of this version in the ledger and not yet mined is
 * never signed again (a second one reverts and burns its gas) — one from this same wallet comes
 * before this chunk in its nonce order, so the chunk goes on; one from another wallet makes the
 * chunk wait. Deployments of another version (BatchPayer v1, whose ledger rows an upgraded install
 * keeps) deploy nothing of this one and do not count.
 */
export async function batchPayerDeployment(
  tx: Db,
  client: Client,
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
export async function deployedAtConfirmedBlock(client: Client, network: string): Promise<boolean> {
  const config = networkConfig(network);
  if (!config) return false;
  const blockNumber = await confirmedBlock(client, config.finality);
  const code = await client.getCode({ address: BATCH_PAYER, blockNumber });
  return Boolean(code && code !== "0x");
}
