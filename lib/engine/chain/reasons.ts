/** Why a transfer out of a gateway wallet is refused before it is sent (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const CHAIN_REASONS = [
  /** The destination is one of the gateway's own addresses (a deposit address, the gas tank, a wallet, a sweep contract). */
  "gateway-address",
  /** The destination is the zero address, a precompile or a system contract (below 0x…10000): funds sent there are gone. */
  "reserved-address",
  /** The gas price is above the operator's cap: nothing was sent. */
  "gas-price-above-cap",
  /** The gas tank holds too little BNB to top the sending wallet up. */
  "gas-tank-short",
  /** The wallet's gas top-up failed, or is not mined yet. */
  "gas-top-up-failed",
  "gas-top-up-pending",
] as const;
export type ChainReason = (typeof CHAIN_REASONS)[number];

export const chainRefusal: Refusal<ChainReason> = refusal;
