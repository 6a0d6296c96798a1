/**
 * The contracts of batched sweeping (EIP-7702) on a chain: whether it can run them (a probe of
 * EIP-7702 through the CREATE2 deployer), whether they are deployed, and their deployment. Both
 * are deployed by the gas tank through the deterministic CREATE2 deployer that BSC and anvil
 * carry, so their addresses follow from the keys and the per-sweep gas allowance alone:
 * BatchSweeper(owner = the sweeper owner key, first operator = the first gas tank, gasPerSweep)
 * and DepositDelegate(sweeper). The deployments are recorded signed before they are broadcast,
 * like every tank transaction; after MAX_FAILED_DEPLOYMENTS that reverted or were never mined the
 * network stays classic until an operator looks.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { concat } from "viem";
import { log } from "../../../base/log";
import type { Db } from "../../../db";
import { type ChainTransaction, sweepBatches } from "../../../db/schema/engine";
import { signingGasPrice } from "../../chain/gas-price";
import { publicClientFor, requireNetworkConfig } from "../../chain/networks";
import { classifyRpcError } from "../../chain/rpc-errors";
import { CREATE2_DEPLOYER, SALT, type SweepContracts } from "../../chain/sweep-addresses";
import { serviceAddresses } from "../../chain/wallet-addresses";
import { broadcastRecorded } from "../../ledger/broadcast";
import { probeAuthorization, signAndRecord } from "../../ledger/signing";
import type { BatchSupport } from "./batch-support";
import { settleOpenTankTransactions } from "./tank-transactions";

export const DEPLOY_KINDS = ["deploy_sweeper", "deploy_delegate"] as const;
/** Deployments that reverted or were never mined this many times: the network stays classic (the operator should look). */
const MAX_FAILED_DEPLOYMENTS = 2;

export async function deployedCode(network: string, contracts: SweepContracts): Promise<{ sweeper: boolean; delegate: boolean }> {
  const client = publicClientFor(network);
  const [sweeper, delegate] = await Promise.all([
    client.getCode({ address: contracts.sweeper }),
    client.getCode({ address: contracts.delegate }),
  ]);
  return { sweeper: Boolean(sweeper && sweeper !== "0x"), delegate: Boolean(delegate && delegate !== "0x") };
}

/**
 * Start-up check of a network: with EIP-7702, a throwaway account delegated (in an eth_call only)
 * to the CREATE2 deployer runs the deployer's code and answers with the address it would create;
 * without it, a call to an account without code answers nothing.
 */
export async function probeEip7702(network: string): Promise<"supported" | "unsupported"> {
  const client = publicClientFor(network);
  const deployer = await client.getCode({ address: CREATE2_DEPLOYER });
  if (!deployer || deployer === "0x") return "unsupported";
  const probe = await probeAuthorization(CREATE2_DEPLOYER, requireNetworkConfig(network).chainId);
  try {
    const { data } = await client.call({
      to: probe.address,
      data: concat([SALT, "0x00"]),
      authorizationList: [probe.authorization],
      gas: 1_000_000n,
    });
    return data && data.length === 42 ? "supported" : "unsupported";
  } catch (error) {
    if (classifyRpcError(error) === "rejected") return "unsupported";
    throw error;
  }
}

function openDeployments(db: Db, network: string) {
  return db
    .select({ id: sweepBatches.id })
    .from(sweepBatches)
    .where(and(eq(sweepBatches.network, network), inArray(sweepBatches.kind, [...DEPLOY_KINDS]), eq(sweepBatches.status, "sent")));
}

export async function deployContracts(
  db: Db,
  network: string,
  contracts: SweepContracts,
  present: { sweeper: boolean; delegate: boolean },
): Promise<BatchSupport> {
  if ((await openDeployments(db, network)).length > 0) {
    await settleOpenTankTransactions(db, network);
    return { state: "wait", reason: "the sweep contracts are being deployed" };
  }
  // Mined, yet the code is missing (a reorg, or a deployment replaced): deploy what is missing again,
  // but not without end: a deployment that reverts or is never mined (its nonce filled) counts.
  const [failed] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sweepBatches)
    .where(
      and(
        eq(sweepBatches.network, network),
        inArray(sweepBatches.kind, [...DEPLOY_KINDS]),
        inArray(sweepBatches.status, ["reverted", "replaced"]),
      ),
    );
  if ((failed?.n ?? 0) >= MAX_FAILED_DEPLOYMENTS)
    return { state: "classic", reason: "deploying the sweep contracts failed; classic sweeps until an operator looks" };

  const client = publicClientFor(network);
  const tankWallet = serviceAddresses().gasTankWallet();
  const tank = tankWallet.address;
  const wanted = [
    ...(present.sweeper ? [] : [{ kind: "deploy_sweeper" as const, data: concat([SALT, contracts.sweeperInit]) }]),
    ...(present.delegate ? [] : [{ kind: "deploy_delegate" as const, data: concat([SALT, contracts.delegateInit]) }]),
  ];
  const [gasPrice, tankBalance, tankCount, ...estimates] = await Promise.all([
    signingGasPrice(network),
    client.getBalance({ address: tank }),
    client.getTransactionCount({ address: tank }),
    ...wanted.map((w) => client.estimateGas({ account: tank, to: CREATE2_DEPLOYER, data: w.data })),
  ]);
  const limits = estimates.map((e) => (e * 13n) / 10n);
  const cost = limits.reduce((sum, l) => sum + l * gasPrice, 0n);
  if (tankBalance < cost)
    return {
      state: "wait",
      reason: `gas tank ${tank} holds ${tankBalance} wei, deploying the sweep contracts needs ${cost}`,
      tankLow: true,
    };
  const signed = await db.transaction(async (tx) => {
    // One deployment at a time per network, across workers and processes.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`bsc-pay:deploy-sweep:${network}`}))`);
    if ((await openDeployments(tx, network)).length > 0) return [];
    // Another process may have deployed them since we looked.
    const now = await deployedCode(network, contracts);
    const rows: ChainTransaction[] = [];
    for (const [i, w] of wanted.entries()) {
      const gasLimit = limits[i];
      if (gasLimit === undefined) throw new Error("a deployment without its gas estimate");
      if (now[w.kind === "deploy_sweeper" ? "sweeper" : "delegate"]) continue;
      const ledgerRow = await signAndRecord(tx, {
        network,
        wallet: tankWallet,
        kind: "deploy",
        chainCount: tankCount,
        transaction: { type: "legacy", to: CREATE2_DEPLOYER, data: w.data, gas: gasLimit, gasPrice },
      });
      await tx.insert(sweepBatches).values({
        network,
        kind: w.kind,
        fromAddress: tank,
        nonce: ledgerRow.nonce,
        gasLimit,
        gasPrice,
        txHash: ledgerRow.txHash,
        chainTxId: ledgerRow.id,
      });
      rows.push(ledgerRow);
    }
    return rows;
  });
  for (const row of signed) await broadcastRecorded(db, row);
  if (signed.length > 0)
    log.info({ network, sweeper: contracts.sweeper, delegate: contracts.delegate }, "deploying the batched-sweep contracts");
  return { state: "wait", reason: "the sweep contracts are being deployed" };
}
