/**
 * Money out of a domain's withdrawal wallet, recorded before it is sent: the one front door for
 * every transfer (a merchant's withdrawal, a refund's payout). Two calls inside the
 * caller's transaction, with the caller's own writes between them:
 *
 *   reserveTransfer(tx, request)  checks, simulation, the wallet's and the merchant's locks, and
 *                               the balances under them (reserve-wallet.ts; throws
 *                               ShortOfTokensError / ShortOfGasError)
 *   …the caller's business…     e.g. a refund's row moved to `sending`, under the locks above
 *   recordTransfer(tx, reserved)  the wallet's next nonce, the signed bytes in the ledger
 *                               (signFromWallet), the `withdrawals` row that points at them
 *
 * and sendRecorded (send-transfer.ts) once the transaction has committed. A payout batch's chunk
 * takes the same three steps with the same functions (lib/domain/payouts/record-chunk.ts). Locks follow the one
 * order of money-out-locks.ts: the caller takes the account's row first; reserveTransfer takes it
 * again (free) and then the wallet's nonce row; the caller's own rows (a payment, a refund) come after.
 */

import { randomUUID } from "node:crypto";
import { type Address, encodeFunctionData, erc20Abi, type Hex } from "viem";
import { getConfig } from "../../base/config";
import { commonRefusal } from "../../base/errors";
import { parseAmount } from "../../base/money";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import {
  type ChainTransaction,
  type ChainTransactionKind,
  type Domain,
  isRecordedWithdrawal,
  type RecordedWithdrawal,
  type Token,
  withdrawals,
} from "../../db/schema";
import { signingGasPrice } from "../../engine/chain/gas-price";
import { isNativeToken } from "../../engine/chain/native";
import { networkConfig, publicClientFor } from "../../engine/chain/networks";
import { serviceAddresses } from "../../engine/chain/wallet-addresses";
import { signAndRecord } from "../../engine/ledger/signing";
import { assertMayWithdraw } from "../gas/limits";
import { assertNotServiceAddress } from "../merchant-domains/gateway-addresses";
import { getOwnDomain } from "../merchant-domains/manage-domains";
import { amountRefusal, paymentRefusal } from "../payments/reasons";
import { findOwnToken } from "../tokens/find-own-token";
import { assertWithdrawable } from "../tokens/withdrawal-rules";
import { lockAccountForMoneyOut, lockPayingWallet } from "./money-out-locks";
import { transferRefusal } from "./reasons";
import { assertGasCovered, assertWalletCovers, walletAtOneBlock } from "./reserve-wallet";
import { insufficientTokens, rpc, simulate } from "./transfer-errors";
import { tallyWithdrawalMove } from "./withdrawal-tallies";

export interface TransferRequest {
  /** The domain whose withdrawal wallet pays. */
  wallet: { domainId: number };
  tokenId: number;
  to: Address;
  /** In the token's units, as a decimal string ("25", "10.5"). */
  amount: string;
  /** On whose account: the merchant, the API key that asked (null: the dashboard), the refund it pays out. */
  for: { userId: number; apiKeyId: number | null; refundId?: string };
}

/** A payout checked and simulated, its wallet locked in the caller's transaction: what recordTransfer signs. */
export interface ReservedTransfer {
  request: TransferRequest;
  token: Token;
  from: Address;
  units: bigint;
  /** The transaction: a token's `transfer` call (to its contract, no value), or BNB itself (to the recipient, value = units). */
  send: { to: Address; data: Hex; value: bigint };
  gasLimit: bigint;
  gasPrice: bigint;
  chainCount: number;
}

/**
 * Nothing is recorded, and no nonce taken, unless a simulation says the transfer can succeed:
 * enough tokens (net of this wallet's payouts not yet mined), no revert, gas within
 * MAX_WITHDRAWAL_GAS (limit = estimate × 1.3, capped), enough BNB for gas (else ShortOfGasError).
 * BNB itself is sent as the transaction's value; the wallet keeps what the gas of its open
 * transactions needs, and a request that would take that BNB is refused saying so.
 * `afterTopUp`: this request already had the wallet topped up (its gas is spent: no budget check again).
 * `counted`: its withdrawal row already counts among the day's withdrawals (one awaiting approval).
 */
export async function reserveTransfer(
  tx: Db,
  request: TransferRequest,
  options: { afterTopUp?: boolean; counted?: boolean } = {},
): Promise<ReservedTransfer> {
  const limits = { checkGasBudget: !options.afterTopUp, transfers: options.counted ? 0 : 1 };
  const { userId } = request.for;
  const { domain, token, units, from } = await checkTransfer(tx, request);
  await assertMayWithdraw(tx, userId, limits);
  const client = publicClientFor(token.network);
  const native = isNativeToken(token.contractAddress);
  const send = native
    ? { to: request.to, data: "0x" as Hex, value: units }
    : {
        to: token.contractAddress as Address,
        data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [request.to, units] }),
        value: 0n,
      };
  const balanceOf = () =>
    native
      ? client.getBalance({ address: from })
      : client.readContract({ address: send.to, abi: erc20Abi, functionName: "balanceOf", args: [from] });

  const { gasLimit, gasPrice } = await rpc(async () => {
    const balance = await balanceOf();
    if (balance < units) throw insufficientTokens(from, balance, units, 0n, token.decimals);
    await simulate(() => client.call({ account: from, ...send }));
    const [estimate, price] = await Promise.all([
      simulate(() => client.estimateGas({ account: from, ...send })),
      signingGasPrice(token.network),
    ]);
    const cap = getConfig().maxWithdrawalGas;
    if (estimate > cap) {
      throw transferRefusal(
        "BLOCKCHAIN_ERROR",
        "transfer-gas-above-limit",
        `the transfer needs ${estimate} gas, above this gateway's limit of ${cap} (MAX_WITHDRAWAL_GAS); nothing was sent`,
      );
    }
    const limit = (estimate * 13n + 9n) / 10n;
    return { gasLimit: limit < cap ? limit : cap, gasPrice: price };
  });

  const firstCount = await rpc(() => client.getTransactionCount({ address: from }));
  await lockAccountForMoneyOut(tx, userId);
  await lockPayingWallet(tx, token.network, from, firstCount);
  // Again under the account's lock: concurrent requests cannot all pass the check above.
  await assertMayWithdraw(tx, userId, limits);
  const wallet = await walletAtOneBlock(token, from);
  const held = await assertWalletCovers(tx, { token, from, units }, wallet);
  assertGasCovered(wallet, held, { network: token.network, domainId: domain.id, from, value: send.value, ownGas: gasLimit * gasPrice });
  return { request, token, from, units, send, gasLimit, gasPrice, chainCount: wallet.chainCount };
}

/**
 * What a payout is checked for before anything of the chain is asked (also when it is only to wait
 * for an approval): the merchant's domain and token, the amount in the token's units, the token's
 * withdrawal rules and a recipient that is no service address; the wallet that would pay.
 */
export async function checkTransfer(
  tx: Db,
  request: TransferRequest,
): Promise<{ domain: Domain; token: Token; units: bigint; from: Address }> {
  const { userId } = request.for;
  const { domainId } = request.wallet;
  const domain = await getOwnDomain(tx, userId, domainId).catch(() => {
    throw commonRefusal("NOT_FOUND", "not-found", `domain ${domainId} not found`);
  });
  const token = await findOwnToken(tx, userId, request.tokenId);
  if (!token) throw commonRefusal("NOT_FOUND", "not-found", `token ${request.tokenId} not found`);
  if (!networkConfig(token.network))
    throw paymentRefusal(
      "VALIDATION_ERROR",
      "token-network-not-served",
      `token ${token.symbol} is on network ${token.network}, which this server does not serve`,
    );
  const units = parseAmount(request.amount, token.decimals);
  if (typeof units === "string") throw amountRefusal("amount", units, token.decimals);
  await assertWithdrawable(tx, token, units);
  await assertNotServiceAddress(tx, request.to, "toAddress");
  const from = serviceAddresses().withdrawal(domain.id);
  return { domain, token, units, from };
}

/** A reserved payout signed with the wallet's next nonce, its bytes in the ledger: what a withdrawal row points at. */
export interface SignedTransfer {
  network: string;
  fromAddress: Address;
  nonce: number;
  txHash: string;
  chainTxId: number;
  gasLimit: bigint;
  gasPrice: bigint;
}

/** Signs the reserved payout with the wallet's next nonce and records it (ledger row, then its withdrawal row). */
export async function recordTransfer(tx: Db, reserved: ReservedTransfer): Promise<RecordedWithdrawal> {
  const { request, token } = reserved;
  const signed = await signTransfer(tx, reserved);
  const inserted = await tx
    .insert(withdrawals)
    .values({
      id: randomUUID(),
      userId: request.for.userId,
      apiKeyId: request.for.apiKeyId,
      refundId: request.for.refundId ?? null,
      domainId: request.wallet.domainId,
      tokenId: token.id,
      network: signed.network,
      fromAddress: signed.fromAddress,
      toAddress: request.to,
      amount: reserved.units,
      nonce: signed.nonce,
      txHash: signed.txHash,
      chainTxId: signed.chainTxId,
      gasLimit: signed.gasLimit,
      gasPrice: signed.gasPrice,
    })
    .returning();
  const withdrawal = requireRow(inserted, "insert into withdrawals");
  if (!isRecordedWithdrawal(withdrawal)) throw new Error(`withdrawal ${withdrawal.id} was inserted without its transaction`);
  await tallyWithdrawalMove(tx, null, withdrawal);
  return withdrawal;
}

/** The wallet's next nonce, the signed bytes in the ledger; the caller writes the withdrawal row that points at them. */
export async function signTransfer(tx: Db, reserved: ReservedTransfer): Promise<SignedTransfer> {
  const { request, token, from, send, gasLimit, gasPrice } = reserved;
  const paying = { network: token.network, domainId: request.wallet.domainId, from, chainCount: reserved.chainCount, gasPrice };
  const rows = await signFromWallet(tx, paying, [{ kind: "withdrawal", ...send, gas: gasLimit }]);
  const { nonce, txHash, id: chainTxId } = requireRow(rows, "the transfer's ledger row");
  return { network: token.network, fromAddress: from, nonce, txHash, chainTxId, gasLimit, gasPrice };
}

/** A transaction of a domain's withdrawal wallet, to be signed at its next nonce. */
export interface WalletSend {
  kind: ChainTransactionKind;
  to: Address;
  data: Hex;
  value: bigint;
  gas: bigint;
}

/**
 * The record step of money out, the same for one transfer (signTransfer) and a payout chunk
 * (lib/domain/payouts/record-chunk.ts): each transaction signed from the domain's withdrawal wallet
 * at its next nonce and recorded in the ledger (engine/ledger/signing.ts signAndRecord), in the
 * caller's transaction and in the order given. Nothing is broadcast: sendRecorded
 * (send-transfer.ts) sends the rows once the transaction has committed.
 */
export async function signFromWallet(
  tx: Db,
  paying: { network: string; domainId: number; from: Address; chainCount: number; gasPrice: bigint },
  sends: readonly WalletSend[],
): Promise<ChainTransaction[]> {
  // The domain's withdrawal wallet: its key index is the domain's id.
  const wallet = { role: "withdrawal", index: paying.domainId, address: paying.from } as const;
  const rows: ChainTransaction[] = [];
  for (const send of sends) {
    const { kind, to, data, value, gas } = send;
    rows.push(
      await signAndRecord(tx, {
        network: paying.network,
        wallet,
        kind,
        chainCount: paying.chainCount,
        transaction: { type: "legacy", to, data, value, gas, gasPrice: paying.gasPrice },
      }),
    );
  }
  return rows;
}
