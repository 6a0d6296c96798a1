/**
 * BNB itself (the chain's native coin) in a catalogue that is keyed by token contract: it has no
 * contract, so it takes the address wallets and aggregators use for "the native coin", which no
 * contract can ever be deployed at. Deposits of it have no log: they are keyed by their
 * transaction with `NATIVE_LOG_INDEX` (one transaction moves value to one address), or — BNB a
 * contract sent with an internal call, which the balance poller finds — by the block and address
 * with `NATIVE_BALANCE_LOG_INDEX` (nativeBalanceDepositId).
 */

import { type Address, concat, getAddress, type Hex, keccak256 } from "viem";

export const NATIVE_TOKEN: Address = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";

/** The sentinel as stored: checksummed by the catalogue, but compared without a function on the column. */
export const NATIVE_SPELLINGS: readonly string[] = [NATIVE_TOKEN, NATIVE_TOKEN.toLowerCase()];

/** A native deposit's `log_index`: a transaction's value is not a log, and a transaction has one recipient. */
export const NATIVE_LOG_INDEX = -1;

/**
 * A native deposit the balance poller found (an increase no transaction's value explains): its
 * `tx_hash` is nativeBalanceDepositId(block hash, address) — no transaction has that hash — and its
 * `log_index` this. Unique per address and block, so several addresses in one block never collide
 * and a reading done again at the same block records nothing new.
 */
export const NATIVE_BALANCE_LOG_INDEX = -2;

/** keccak256(block hash ‖ address): the `tx_hash` of a deposit the balance poller recorded at that block. */
export function nativeBalanceDepositId(blockHash: string, address: string): string {
  return keccak256(concat([blockHash.toLowerCase() as Hex, address.toLowerCase() as Hex]));
}

export const NATIVE_DECIMALS = 18;

export function isNativeToken(contract: string): boolean {
  return contract.toLowerCase() === NATIVE_TOKEN.toLowerCase();
}

/** The catalogue's address for a token: checksummed, the native coin included. */
export function catalogueAddress(contract: string): Address {
  return getAddress(contract);
}
