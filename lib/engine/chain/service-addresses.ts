/**
 * The addresses this service derives from its keys alone (the gas tank, the sweeper's owner) or
 * deploys (the sweep contracts), and the reserved ones below 0x…10000. Payout targets may be
 * none of them, nor a deposit address or a withdrawal wallet: that check, which reads the
 * merchants' records, is lib/domain/merchant-domains/gateway-addresses.ts.
 */

import { getConfig } from "../../base/config";
import { BATCH_PAYERS } from "./batch-payer";
import { gasTankGeneration, keyRingFor } from "./keys";
import { CREATE2_DEPLOYER, serviceSweepContracts } from "./sweep-addresses";

/**
 * Addresses that follow from the keys alone: every gas tank generation up to the next one, the
 * sweeper's owner, and the sweep contracts (funds sent to a contract are stuck there). Lower-case.
 * The scanner reads it too: BNB these send to a deposit address (the gas tank's top-ups) is not a payment.
 */
export function serviceKeyAddresses(): Set<string> {
  const keys = keyRingFor(getConfig().masterMnemonic);
  const contracts = serviceSweepContracts();
  const tanks = Array.from({ length: gasTankGeneration() + 2 }, (_, g) => keys.gasTankAddress(g));
  return new Set(
    [...tanks, keys.sweeperOwnerAddress(), contracts.sweeper, contracts.delegate, CREATE2_DEPLOYER, ...BATCH_PAYERS].map((a) =>
      a.toLowerCase(),
    ),
  );
}

/**
 * The zero address, the precompiles and BSC's system contracts all sit below 0x…10000; no wallet
 * does. BNB or tokens sent there are gone (a precompile even accepts BNB in a successful call).
 */
export function isReservedAddress(address: string): boolean {
  return BigInt(address) < 0x10000n;
}
