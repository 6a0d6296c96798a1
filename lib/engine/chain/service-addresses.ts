/**
 * Payout targets may not be addresses this service derives (a deposit address, the gas tank, a
 * withdrawal wallet, the sweeper's owner) or deploys (the sweep contracts): a forward into one of
 * them would be swept again, land where another merchant's rules apply, or be stuck in a contract.
 */

import { and, eq, inArray } from "drizzle-orm";
import { getConfig, type NetworkName } from "../../base/config";
import type { Db } from "../../db";
import { domains, paymentSessions } from "../../db/schema";
import { BATCH_PAYERS } from "./batch-payer";
import { depositTopicOf } from "./deposit-addresses";
import { gasTankGeneration, keyRingFor } from "./keys";
import { chainRefusal } from "./reasons";
import { CREATE2_DEPLOYER, serviceSweepContracts } from "./sweep-addresses";

const ALL_NETWORKS: NetworkName[] = ["bsc", "bsc-testnet", "local"];

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

export async function isServiceAddress(db: Db, address: string): Promise<boolean> {
  if (serviceKeyAddresses().has(address.toLowerCase())) return true;
  const networks = ALL_NETWORKS;
  {
    // Deposit addresses are the same on every network (one mnemonic): any network's session counts.
    const [deposit] = await db
      .select({ id: paymentSessions.id })
      .from(paymentSessions)
      .where(and(inArray(paymentSessions.network, networks), eq(paymentSessions.depositTopic, depositTopicOf(address))))
      .limit(1);
    if (deposit) return true;
  }
  const [wallet] = await db.select({ id: domains.id }).from(domains).where(eq(domains.withdrawalAddress, address)).limit(1);
  return wallet !== undefined;
}

/**
 * The zero address, the precompiles and BSC's system contracts all sit below 0x…10000; no wallet
 * does. BNB or tokens sent there are gone (a precompile even accepts BNB in a successful call).
 */
export function isReservedAddress(address: string): boolean {
  return BigInt(address) < 0x10000n;
}

export async function assertNotServiceAddress(db: Db, address: string | null | undefined, field: string): Promise<void> {
  if (!address) return;
  if (isReservedAddress(address))
    throw chainRefusal(
      "VALIDATION_ERROR",
      "reserved-address",
      `${field} ${address} is the zero address, a precompile or a system contract: funds sent there are lost`,
      [{ path: field, message: "is a reserved address (zero, a precompile or a system contract)" }],
    );
  if (await isServiceAddress(db, address)) {
    throw chainRefusal(
      "VALIDATION_ERROR",
      "gateway-address",
      `${field} ${address} is an address of this gateway (a deposit address, the gas tank, a withdrawal wallet or a sweep contract); send funds to a wallet outside it`,
    );
  }
}
