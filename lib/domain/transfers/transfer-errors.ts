/** Why a payout was not recorded, as its callers tell the cases apart, and how chain errors are said. */

import { type Address, formatEther } from "viem";
import { AppError } from "../../base/errors";
import { GasPriceAboveCapError } from "../../engine/chain/gas-price";
import { chainRefusal } from "../../engine/chain/reasons";
import { classifyRpcError, errorHeadline } from "../../engine/chain/rpc-errors";
import { type TransferReason, transferRefusal } from "./reasons";

/**
 * The wallet lacks BNB for this send (net of its sends not yet mined). Thrown inside the
 * recording transaction, which then records nothing; withGasTopUps (send-transfer.ts) tops the
 * wallet up — outside any transaction, because a top-up is broadcast and its nonce must never
 * be rolled back — and records again.
 */
export class ShortOfGasError extends Error {
  constructor(
    readonly network: string,
    /** The domain whose withdrawal wallet it is: its owner is charged for the top-up. */
    readonly domainId: number,
    readonly wallet: Address,
    /** The balance the wallet must hold (gas and, for BNB itself, the value it sends). */
    readonly neededWei: bigint,
    readonly perSendWei: bigint,
    /** The gas part of neededWei: the most a top-up for it may send (never the value itself). */
    readonly gasWei: bigint = neededWei,
  ) {
    super(`withdrawal wallet ${wallet} needs ${neededWei} wei of BNB`);
  }
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
    super("BLOCKCHAIN_ERROR", message, undefined, undefined, "wallet-short-of-tokens" satisfies TransferReason);
  }
}

export function insufficientTokens(
  wallet: Address,
  balance: bigint,
  units: bigint,
  reserved: bigint,
  decimals: number,
): ShortOfTokensError {
  const human = (v: bigint) => `${v / 10n ** BigInt(decimals)}${v % 10n ** BigInt(decimals) ? "…" : ""}`;
  return new ShortOfTokensError(
    wallet,
    balance,
    reserved,
    units,
    `not enough tokens in the withdrawal wallet: it holds ${balance} base units (≈${human(balance)})${reserved ? `, ${reserved} reserved by withdrawals not yet mined` : ""}; ${units} needed`,
  );
}

/**
 * A BNB payout the wallet cannot make without the BNB its open sends (their amounts and their gas)
 * still need: refused, saying what is held back (a refund waits for funds like a token's).
 */
export function insufficientBnb(
  wallet: Address,
  balance: bigint,
  units: bigint,
  reserved: bigint,
  reservedGas: bigint,
): ShortOfTokensError {
  const held = [
    reserved ? `${formatEther(reserved)} BNB reserved by sends not yet mined` : "",
    reservedGas ? `${formatEther(reservedGas)} BNB kept for gas (the open transactions', and what the gas tank lent)` : "",
  ]
    .filter(Boolean)
    .join(" and ");
  return new ShortOfTokensError(
    wallet,
    balance,
    reserved + reservedGas,
    units,
    `not enough BNB in the withdrawal wallet: it holds ${formatEther(balance)} BNB${held ? `, of which ${held}` : ""}; ${formatEther(units)} BNB needed`,
  );
}

/** A revert in eth_call / eth_estimateGas becomes BLOCKCHAIN_ERROR naming the reason. */
export async function simulate<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (classifyRpcError(error) === "rejected") {
      throw transferRefusal(
        "BLOCKCHAIN_ERROR",
        "transfer-would-revert",
        `the transfer would revert: ${errorHeadline(error).slice(0, 200)}`,
      );
    }
    throw error;
  }
}

/** Any other RPC failure is BLOCKCHAIN_ERROR too, without internals. */
export async function rpc<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof GasPriceAboveCapError) throw chainRefusal("BLOCKCHAIN_ERROR", "gas-price-above-cap", error.message);
    throw transferRefusal("BLOCKCHAIN_ERROR", "rpc-failed", `RPC request failed: ${errorHeadline(error).slice(0, 160)}`);
  }
}
