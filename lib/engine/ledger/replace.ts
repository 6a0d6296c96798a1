/**
 * Replaces the newest row of a nonce by a new row at the same nonce, recorded before it is sent:
 *   reprice  the same payload (recipient, value, data, gas) at a higher fee
 *   cancel   a 0-value transfer to the wallet itself, which fills the nonce and pays nothing
 * Either way at most one of the rows can be mined, and the ledger settles which one did.
 * A withdrawal wallet is topped up by the gas tank first when it cannot pay the higher fee.
 */

import { and, eq, inArray } from "drizzle-orm";
import { type Address, type Hex, parseTransaction } from "viem";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { isUniqueViolation } from "../../db/errors";
import { type ChainTransaction, chainTransactions } from "../../db/schema/engine";
import { signingGasPrice } from "../chain/gas-price";
import { networkConfig } from "../chain/networks";
import { PLAIN_TRANSFER_GAS } from "../chain/transactions";
import { serviceAddresses } from "../chain/wallet-addresses";
import { broadcastRecorded } from "./broadcast";
import { chargeForDomainWallet } from "./charges";
import { replacementGasPrice } from "./decide";
import { ensureGasBalance } from "./gas-top-up";
import { signReplacement, type UnsignedTransaction } from "./signing";

export type Replacement = "reprice" | "cancel";

export async function replaceTransaction(db: Db, newest: ChainTransaction, how: Replacement): Promise<ChainTransaction | null> {
  if (!newest.rawTx) return null;
  const network = networkConfig(newest.network);
  if (!network) return null;
  const original = parseTransaction(newest.rawTx as Hex);
  // Above MAX_GAS_PRICE nothing is signed (signingGasPrice throws; the round retries later).
  const gasPrice = replacementGasPrice(newest.gasPrice, await signingGasPrice(newest.network), network.maxGasPrice);
  if (gasPrice === null) {
    log.warn(
      { network: newest.network, wallet: newest.wallet, nonce: newest.nonce, gasPrice: newest.gasPrice.toString() },
      "a stuck nonce is already priced at MAX_GAS_PRICE: no replacement above it; it waits for the network or the operator",
    );
    return null;
  }
  // biome-ignore lint/style/noNonNullAssertion: recordTransaction refuses bytes without a gas limit, so a recorded rawTx has one
  const gas = how === "cancel" ? PLAIN_TRANSFER_GAS : original.gas!;
  if (newest.walletRole === "withdrawal") {
    // A withdrawal wallet's key index is its domain's id: the domain's owner pays for the top-up.
    const needs = await walletNeeds(db, newest, gas * gasPrice);
    await ensureGasBalance(
      db,
      newest.network,
      newest.wallet as Address,
      needs.gas + needs.value,
      await chargeForDomainWallet(db, newest.walletIndex),
      needs.gas,
    );
  }
  let transaction: UnsignedTransaction;
  if (how === "cancel")
    // To the wallet's own address, as its key derives it.
    transaction = {
      gas,
      type: "legacy",
      to: serviceAddresses().wallet(newest.walletRole, newest.walletIndex).address,
      value: 0n,
      gasPrice,
    };
  else if (original.type === "eip7702") {
    // A batch keeps its authorizations (signed by the deposit keys; still valid while unused): only the fee moves.
    transaction = {
      gas,
      type: "eip7702",
      // biome-ignore lint/style/noNonNullAssertion: recordTransaction refuses bytes without a recipient, so a recorded rawTx has one
      to: original.to!,
      value: original.value ?? 0n,
      data: original.data,
      maxFeePerGas: gasPrice,
      maxPriorityFeePerGas: gasPrice,
      // biome-ignore lint/style/noNonNullAssertion: the service signs an eip7702 transaction only with authorizations, and viem parses a non-empty list back
      authorizationList: original.authorizationList!,
    };
  } else
    transaction = {
      gas,
      type: "legacy",
      // biome-ignore lint/style/noNonNullAssertion: recordTransaction refuses bytes without a recipient, so a recorded rawTx has one
      to: original.to!,
      value: original.value ?? 0n,
      data: original.data,
      gasPrice,
    };
  let row: ChainTransaction;
  try {
    // At newest's own nonce: no nonce is taken, at most one of the rows can be mined.
    row = await signReplacement(db, newest, { kind: how === "cancel" ? "cancel" : newest.kind, transaction });
  } catch (error) {
    // Another process replaced this row first: its replacement is the one to follow.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
  log.warn(
    { network: newest.network, wallet: newest.wallet, nonce: newest.nonce, kind: newest.kind, how, gasPrice: gasPrice.toString() },
    "a transaction at its wallet's next nonce is replaced",
  );
  await broadcastRecorded(db, row);
  return row;
}

/**
 * The BNB a withdrawal wallet needs for all its open transactions, this nonce's at the new fee: their
 * gas, and the BNB they send as value (a BNB withdrawal or payout), which the balance holds too.
 */
async function walletNeeds(db: Db, newest: ChainTransaction, replacementCost: bigint): Promise<{ gas: bigint; value: bigint }> {
  const open = await db
    .select({
      id: chainTransactions.id,
      nonce: chainTransactions.nonce,
      gasLimit: chainTransactions.gasLimit,
      gasPrice: chainTransactions.gasPrice,
      value: chainTransactions.value,
    })
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.network, newest.network),
        eq(chainTransactions.wallet, newest.wallet),
        inArray(chainTransactions.status, ["pending"]),
      ),
    );
  const perNonce = new Map<number, bigint>();
  const values = new Map<number, bigint>();
  for (const row of open) {
    const cost = row.gasLimit * row.gasPrice;
    if (cost > (perNonce.get(row.nonce) ?? 0n)) perNonce.set(row.nonce, cost);
    // A cancel carries no value: the nonce's dearest value is what may still leave.
    if (row.value > (values.get(row.nonce) ?? 0n)) values.set(row.nonce, row.value);
  }
  const current = perNonce.get(newest.nonce) ?? 0n;
  perNonce.set(newest.nonce, replacementCost > current ? replacementCost : current);
  const sum = (m: Map<number, bigint>) => [...m.values()].reduce((total, v) => total + v, 0n);
  return { gas: sum(perNonce), value: sum(values) };
}
