/**
 * BNB itself (the chain's native coin) in a catalogue that is keyed by token contract: it has no
 * contract, so it takes the address wallets and aggregators use for "the native coin", which no
 * contract can ever be deployed at. Deposits of it have no log: they are keyed by their
 * transaction with `NATIVE_LOG_INDEX` (one transaction moves value to one address).
 */

import { type Address, getAddress } from "viem";

export const NATIVE_TOKEN: Address = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";

/** A native deposit's `log_index`: a transaction's value is not a log, and a transaction has one recipient. */
export const NATIVE_LOG_INDEX = -1;

export const NATIVE_DECIMALS = 18;

export function isNativeToken(contract: string): boolean {
  return contract.toLowerCase() === NATIVE_TOKEN.toLowerCase();
}

/** The catalogue's address for a token: checksummed, the native coin included. */
export function catalogueAddress(contract: string): Address {
  return getAddress(contract);
}
