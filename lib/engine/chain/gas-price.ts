/**
 * The one place a gas price to sign at is read (docs/design.md §21): the node's eth_gasPrice, refused
 * above the network's MAX_GAS_PRICE. A compromised or misrouted provider answering 1,000 gwei
 * would otherwise have every top-up, sweep and withdrawal pay ~10,000× normal. The refusal is
 * transient (classifyRpcError reads it so): nothing is signed, nothing counts as failed, the work
 * is tried again later, and /api/health, the metric and `admin status` show the stall.
 */

import { formatGwei } from "viem";
import { publicClientFor, requireNetworkConfig } from "./networks";

export class GasPriceAboveCapError extends Error {
  constructor(
    readonly network: string,
    readonly price: bigint,
    readonly cap: bigint,
  ) {
    super(
      `the gas price on ${network} is ${formatGwei(price)} gwei, above MAX_GAS_PRICE (${formatGwei(cap)} gwei): nothing was signed; it is tried again once the price is back under the limit`,
    );
    this.name = "GasPriceAboveCapError";
  }
}

/** The network's gas price to sign a new transaction at; throws GasPriceAboveCapError above MAX_GAS_PRICE. */
export async function signingGasPrice(network: string): Promise<bigint> {
  const cap = requireNetworkConfig(network).maxGasPrice;
  const price = await publicClientFor(network).getGasPrice();
  if (price > cap) throw new GasPriceAboveCapError(network, price, cap);
  return price;
}
