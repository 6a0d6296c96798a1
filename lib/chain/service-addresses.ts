import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db";
import { domains, paymentSessions } from "../db/schema";
import { getConfig, type NetworkName } from "../config";
import { AppError } from "../errors";
import { depositTopicOf } from "./deposit-addresses";
import { keyRingFor } from "./keys";

/**
 * Payout targets may not be addresses this service derives (a deposit address, the gas tank, a
 * withdrawal wallet): a forward into one of them would be swept again, or land where another
 * merchant's rules apply — a forwarding chain nobody asked for.
 */
const ALL_NETWORKS: NetworkName[] = ["bsc", "bsc-testnet", "local"];

export async function isServiceAddress(db: Db, address: string): Promise<boolean> {
  if (address.toLowerCase() === keyRingFor(getConfig().masterMnemonic).gasTankAddress().toLowerCase()) return true;
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
  if (await isServiceAddress(db, address)) {
    throw new AppError(
      "VALIDATION_ERROR",
      `${field} ${address} is an address of this gateway (a deposit address, the gas tank or a withdrawal wallet); send funds to a wallet outside it`,
    );
  }
}
