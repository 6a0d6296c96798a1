import { randomUUID } from "node:crypto";
import { and, eq, gte } from "drizzle-orm";
import { type Address, encodeFunctionData, erc20Abi } from "viem";
import { GasPriceAboveCapError, signingGasPrice } from "../chain/gas-price";
import { keyRingFor } from "../chain/keys";
import { chainOf, networkConfig, publicClientFor } from "../chain/networks";
import { allocateNonce } from "../chain/nonces";
import { chainRefusal } from "../chain/reasons";
import { classifyRpcError, errorHeadline } from "../chain/rpc-errors";
import { assertNotServiceAddress } from "../chain/service-addresses";
import { getConfig } from "../config";
import type { Db } from "../db";
import { requireRow } from "../db/rows";
import { type Withdrawal, walletNonces, withdrawals } from "../db/schema";
import { getOwnDomain } from "../domains/manage-domains";
import { AppError, commonRefusal } from "../errors";
import { assertMayWithdraw, lockMerchant } from "../gas/limits";
import { recordTransaction } from "../ledger/record";
import { parseAmount } from "../payments/amount";
import { amountRefusal, paymentRefusal } from "../payments/reasons";
import { findOwnToken } from "../tokens/find-own-token";
import { assertWithdrawable } from "../tokens/withdrawal-rules";
import { type WithdrawalReason, withdrawalRefusal } from "./reasons";
import type { SendWithdrawalInput } from "./schemas";

export interface RecordedWithdrawal {
  withdrawal: Withdrawal;
  tokenSymbol: string;
  tokenDecimals: number;
}

/** Who sends: an API key of the user, or the user from the dashboard (with the form's request id). */
export interface WithdrawalSender {
  userId: number;
  apiKeyId: number | null;
  clientRequestId?: string;
  /**
   * The refund this withdrawal pays out. `claim` runs in the recording transaction, under the
   * wallet's and the merchant's locks, before the withdrawal is written: it moves the refund to
   * `sending` (or inserts it) and throws when it may not, which records nothing. `recorded` runs
   * in the same transaction once the withdrawal row exists (events that name it).
   */
  refund?: { id: string; claim(tx: Db): Promise<void>; recorded?(tx: Db, withdrawal: Withdrawal): Promise<void> };
}

/**
 * Records a withdrawal from the domain's wallet, signed with the next nonce of that wallet.
 * Nothing is recorded, and no nonce taken, unless a simulation says the transfer can succeed:
 * enough tokens (net of this wallet's withdrawals not yet mined), no revert, gas within
 * MAX_WITHDRAWAL_GAS (limit = estimate × 1.3, capped), enough BNB for gas (else ShortOfGasError,
 * and the caller has the gas tank top the wallet up). The caller broadcasts the stored
 * transaction only after this function's transaction has committed.
 */
export async function recordWithdrawal(
  db: Db,
  sender: WithdrawalSender,
  input: SendWithdrawalInput,
  options: { afterTopUp?: boolean } = {},
): Promise<RecordedWithdrawal> {
  const limits = { checkGasBudget: !options.afterTopUp };
  const domain = await getOwnDomain(db, sender.userId, input.domainId).catch(() => {
    throw commonRefusal("NOT_FOUND", "not-found", `domain ${input.domainId} not found`);
  });
  const token = await findOwnToken(db, sender.userId, input.tokenId);
  if (!token) throw commonRefusal("NOT_FOUND", "not-found", `token ${input.tokenId} not found`);
  const network = networkConfig(token.network);
  if (!network)
    throw paymentRefusal(
      "VALIDATION_ERROR",
      "token-network-not-served",
      `token ${token.symbol} is on network ${token.network}, which this server does not serve`,
    );
  const units = parseAmount(input.amount, token.decimals);
  if (typeof units === "string") throw amountRefusal("amount", units, token.decimals);
  await assertWithdrawable(db, token, units);

  await assertNotServiceAddress(db, input.toAddress, "toAddress");
  await assertMayWithdraw(db, sender.userId, limits);

  const keys = keyRingFor(getConfig().masterMnemonic);
  const from = keys.withdrawalAddress(domain.id);
  const client = publicClientFor(token.network);
  const contract = token.contractAddress as Address;
  const data = encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [input.toAddress, units] });

  const { gasLimit, gasPrice } = await rpc(async () => {
    const balance = await client.readContract({ address: contract, abi: erc20Abi, functionName: "balanceOf", args: [from] });
    if (balance < units) throw insufficientTokens(from, balance, units, 0n, token.decimals);
    await simulate(() => client.call({ account: from, to: contract, data }));
    const [estimate, price] = await Promise.all([
      simulate(() => client.estimateGas({ account: from, to: contract, data })),
      signingGasPrice(token.network),
    ]);
    const cap = getConfig().maxWithdrawalGas;
    if (estimate > cap) {
      throw withdrawalRefusal(
        "BLOCKCHAIN_ERROR",
        "transfer-gas-above-limit",
        `the transfer needs ${estimate} gas, above this gateway's limit of ${cap} (MAX_WITHDRAWAL_GAS); nothing was sent`,
      );
    }
    const limit = (estimate * 13n + 9n) / 10n;
    return { gasLimit: limit < cap ? limit : cap, gasPrice: price };
  });

  const chainCount = await rpc(() => client.getTransactionCount({ address: from }));
  const withdrawal = await db.transaction(async (tx) => {
    await lockWallet(tx, token.network, from, chainCount);
    // Again under the merchant's lock: concurrent requests cannot all pass the check above.
    await lockMerchant(tx, sender.userId);
    await assertMayWithdraw(tx, sender.userId, limits);
    const pending = await tx
      .select()
      .from(withdrawals)
      .where(
        and(
          eq(withdrawals.network, token.network),
          eq(withdrawals.fromAddress, from),
          eq(withdrawals.status, "submitted"),
          gte(withdrawals.nonce, chainCount),
        ),
      );
    const reservedTokens = pending.filter((w) => w.tokenId === token.id).reduce((sum, w) => sum + w.amount, 0n);
    const reservedGas = pending.reduce((sum, w) => sum + w.gasLimit * w.gasPrice, 0n);
    const [tokenBalance, bnb] = await rpc(() =>
      Promise.all([
        client.readContract({ address: contract, abi: erc20Abi, functionName: "balanceOf", args: [from] }),
        client.getBalance({ address: from }),
      ]),
    );
    if (tokenBalance - reservedTokens < units) throw insufficientTokens(from, tokenBalance, units, reservedTokens, token.decimals);
    if (bnb - reservedGas < gasLimit * gasPrice)
      throw new ShortOfGasError(token.network, domain.id, from, reservedGas + gasLimit * gasPrice, gasLimit * gasPrice);

    if (sender.refund) await sender.refund.claim(tx);
    const nonce = await allocateNonce(tx, token.network, from, chainCount);
    const chain = chainOf(network);
    const raw = await keys
      .signer("withdrawal", domain.id)
      .signTransaction({ chain, chainId: chain.id, type: "legacy", to: contract, data, gas: gasLimit, gasPrice, nonce });
    const ledgerRow = await recordTransaction(tx, {
      network: token.network,
      walletRole: "withdrawal",
      walletIndex: domain.id,
      wallet: from,
      kind: "withdrawal",
      raw,
    });
    const inserted = await tx
      .insert(withdrawals)
      .values({
        id: randomUUID(),
        userId: sender.userId,
        apiKeyId: sender.apiKeyId,
        clientRequestId: sender.clientRequestId ?? null,
        refundId: sender.refund?.id ?? null,
        domainId: domain.id,
        tokenId: token.id,
        network: token.network,
        fromAddress: from,
        toAddress: input.toAddress,
        amount: units,
        nonce,
        txHash: ledgerRow.txHash,
        chainTxId: ledgerRow.id,
        gasLimit,
        gasPrice,
      })
      .returning();
    const row = requireRow(inserted, "insert into withdrawals");
    await sender.refund?.recorded?.(tx, row);
    return row;
  });
  return { withdrawal, tokenSymbol: token.symbol, tokenDecimals: token.decimals };
}

/**
 * The wallet lacks BNB for this send (net of its sends not yet mined). Thrown inside the
 * recording transaction, which then records nothing; the caller tops the wallet up — outside any
 * transaction, because a top-up is broadcast and its nonce must never be rolled back — and retries.
 */
export class ShortOfGasError extends Error {
  constructor(
    readonly network: string,
    /** The domain whose withdrawal wallet it is: its owner is charged for the top-up. */
    readonly domainId: number,
    readonly wallet: Address,
    readonly neededWei: bigint,
    readonly perSendWei: bigint,
  ) {
    super(`withdrawal wallet ${wallet} needs ${neededWei} wei of BNB`);
  }
}

async function lockWallet(tx: Db, network: string, address: string, chainCount: number): Promise<void> {
  await tx.insert(walletNonces).values({ network, address, nextNonce: chainCount }).onConflictDoNothing();
  await tx
    .select({ next: walletNonces.nextNonce })
    .from(walletNonces)
    .where(and(eq(walletNonces.network, network), eq(walletNonces.address, address)))
    .for("update");
}

/**
 * The wallet lacks the tokens (net of its sends not yet mined); nothing was recorded. An AppError
 * (BLOCKCHAIN_ERROR) like any refusal; a refund tells it apart to wait for the funds instead.
 */
export class ShortOfTokensError extends AppError {
  constructor(
    readonly wallet: Address,
    readonly balance: bigint,
    readonly reserved: bigint,
    readonly needed: bigint,
    message: string,
  ) {
    super("BLOCKCHAIN_ERROR", message, undefined, undefined, "wallet-short-of-tokens" satisfies WithdrawalReason);
  }
}

function insufficientTokens(wallet: Address, balance: bigint, units: bigint, reserved: bigint, decimals: number): ShortOfTokensError {
  const human = (v: bigint) => `${v / 10n ** BigInt(decimals)}${v % 10n ** BigInt(decimals) ? "…" : ""}`;
  return new ShortOfTokensError(
    wallet,
    balance,
    reserved,
    units,
    `not enough tokens in the withdrawal wallet: it holds ${balance} base units (≈${human(balance)})${reserved ? `, ${reserved} reserved by withdrawals not yet mined` : ""}; ${units} needed`,
  );
}

/** A revert in eth_call / eth_estimateGas becomes BLOCKCHAIN_ERROR naming the reason. */
async function simulate<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (classifyRpcError(error) === "rejected") {
      throw withdrawalRefusal(
        "BLOCKCHAIN_ERROR",
        "transfer-would-revert",
        `the transfer would revert: ${errorHeadline(error).slice(0, 200)}`,
      );
    }
    throw error;
  }
}

/** Any other RPC failure is BLOCKCHAIN_ERROR too, without internals. */
async function rpc<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof GasPriceAboveCapError) throw chainRefusal("BLOCKCHAIN_ERROR", "gas-price-above-cap", error.message);
    throw withdrawalRefusal("BLOCKCHAIN_ERROR", "rpc-failed", `RPC request failed: ${errorHeadline(error).slice(0, 160)}`);
  }
}
