/**
 * The addresses of the service's own wallets, derived from MASTER_MNEMONIC (keys.ts), for every
 * reader: a dashboard, a health check, a domain's withdrawal wallet, what a transaction is sent
 * from. No signer is handed out here; signing is the ledger's alone (lib/engine/ledger/signing.ts),
 * and it names a wallet as this file does: its role, its key index, its address.
 */

import type { Address } from "viem";
import { getConfig } from "../../base/config";
import type { WalletRole } from "../../db/schema/engine";
import { gasTankGeneration, keyRingFor, PURPOSE_OF_ROLE } from "./keys";

/**
 * A wallet of the service: its key's role and index (a deposit index, a domain's id, a gas tank
 * generation, 0 for the sweeper owner) and the address they derive.
 */
export interface ServiceWallet {
  role: WalletRole;
  index: number;
  address: Address;
}

export interface ServiceAddresses {
  /** Deposit address #index. */
  deposit(index: number): Address;
  /** The current gas tank, or the one of `generation`. */
  gasTank(generation?: number): Address;
  /** The withdrawal wallet of domain `domainId`. */
  withdrawal(domainId: number): Address;
  sweeperOwner(): Address;
  /** The wallet of a role and key index, with its address. */
  wallet(role: WalletRole, index: number): ServiceWallet;
  /** The current gas tank as a wallet: its generation and its address read together. */
  gasTankWallet(): ServiceWallet;
}

/** The derived addresses of `mnemonic` (the configured one unless given). */
export function serviceAddresses(mnemonic: string = getConfig().masterMnemonic): ServiceAddresses {
  const keys = keyRingFor(mnemonic);
  const wallet = (role: WalletRole, index: number): ServiceWallet => ({ role, index, address: keys.address(PURPOSE_OF_ROLE[role], index) });
  return {
    deposit: (index) => keys.depositAddress(index),
    gasTank: (generation) => keys.gasTankAddress(generation),
    withdrawal: (domainId) => keys.withdrawalAddress(domainId),
    sweeperOwner: () => keys.sweeperOwnerAddress(),
    wallet,
    gasTankWallet: () => wallet("gas_tank", gasTankGeneration()),
  };
}
