/**
 * Payout targets may not be addresses this service derives (a deposit address, the gas tank, a
 * withdrawal wallet, the sweeper's owner) or deploys (the sweep contracts): a forward into one of
 * them would be swept again, land where another merchant's rules apply, or be stuck in a contract.
 * The keys' own addresses come from the engine (serviceKeyAddresses); deposit addresses and
 * withdrawal wallets are read from the sessions and domains here.
 */

import { and, eq, inArray } from "drizzle-orm";
import type { NetworkName } from "../../base/config";
import type { Db } from "../../db";
import { domains, paymentSessions } from "../../db/schema";
import { depositTopicOf } from "../../engine/chain/deposit-addresses";
import { chainRefusal } from "../../engine/chain/reasons";
import { isReservedAddress, serviceKeyAddresses } from "../../engine/chain/service-addresses";

const ALL_NETWORKS: NetworkName[] = ["bsc", "bsc-testnet", "local"];

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
