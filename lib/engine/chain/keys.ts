/**
 * Every key the service holds derives from MASTER_MNEMONIC (docs/design.md §7):
 *   deposit address i           m/44'/60'/0'/0/i
 *   gas tank                    m/44'/60'/1'/0/g   (g = the tank's generation, 0 until the operator
 *                                                   rotates it: npm run admin -- sweeper rotate-operator)
 *   withdrawal wallet of domain d  m/44'/60'/2'/0/d
 *   sweeper owner               m/44'/60'/3'/0/0   (signs nothing but the BatchSweeper's pause and
 *                                                   operator changes)
 * The seed and the four parents are derived once (PBKDF2 is ~30 ms); a child is ~1 ms.
 * Private keys live only in memory, as long as a signer is in use; they are never stored or logged.
 * Only the engine builds the ring: the ledger to sign (lib/engine/ledger/signing.ts), this folder to
 * derive addresses (wallet-addresses.ts hands them to everyone else).
 */

import { secp256k1 } from "@noble/curves/secp256k1";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { type Address, bytesToHex, getAddress, type Hex, keccak256 } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import type { WalletRole } from "../../db/schema/engine";

export type KeyPurpose = "deposit" | "gasTank" | "withdrawal" | "sweeperOwner";

const ACCOUNT_OF: Record<KeyPurpose, number> = { deposit: 0, gasTank: 1, withdrawal: 2, sweeperOwner: 3 };

/** The key of a ledger wallet's role. */
export const PURPOSE_OF_ROLE: Record<WalletRole, KeyPurpose> = {
  deposit: "deposit",
  withdrawal: "withdrawal",
  gas_tank: "gasTank",
  sweeper_owner: "sweeperOwner",
};

/** The gas tank's generation in this process (lib/engine/chain/gas-tank.ts keeps it in step with the database). */
const TANK_KEY = Symbol.for("bsc-pay.gas-tank-generation");
export function gasTankGeneration(): number {
  return (globalThis as { [TANK_KEY]?: number })[TANK_KEY] ?? 0;
}
export function setGasTankGeneration(generation: number): void {
  (globalThis as { [TANK_KEY]?: number })[TANK_KEY] = generation;
}
export const MAX_CHILD_INDEX = 0x7fffffff; // non-hardened children only

export class KeyRing {
  private readonly parents: Record<KeyPurpose, HDKey>;

  constructor(mnemonic: string) {
    const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
    this.parents = {
      deposit: root.derive(`m/44'/60'/${ACCOUNT_OF.deposit}'/0`),
      gasTank: root.derive(`m/44'/60'/${ACCOUNT_OF.gasTank}'/0`),
      withdrawal: root.derive(`m/44'/60'/${ACCOUNT_OF.withdrawal}'/0`),
      sweeperOwner: root.derive(`m/44'/60'/${ACCOUNT_OF.sweeperOwner}'/0`),
    };
  }

  /** Address only: needs no private key (what wallet-addresses.ts hands out). */
  address(purpose: KeyPurpose, index: number): Address {
    const child = this.child(purpose, index);
    // biome-ignore lint/style/noNonNullAssertion: children of a node derived from the master seed are private ones, so HDKey has computed their public key
    const uncompressed = secp256k1.ProjectivePoint.fromHex(child.publicKey!).toRawBytes(false);
    return getAddress(`0x${keccak256(uncompressed.subarray(1)).slice(-40)}`);
  }

  /** A signing account, for lib/engine/ledger/signing.ts alone: used for the transaction at hand and dropped. */
  signer(purpose: KeyPurpose, index: number): PrivateKeyAccount {
    // biome-ignore lint/style/noNonNullAssertion: children of a node derived from the master seed are private ones, so HDKey holds their private key
    const privateKey: Hex = bytesToHex(this.child(purpose, index).privateKey!);
    return privateKeyToAccount(privateKey);
  }

  depositAddress(index: number): Address {
    return this.address("deposit", index);
  }

  /** The current gas tank (or the one of `generation`). */
  gasTankAddress(generation = gasTankGeneration()): Address {
    return this.address("gasTank", generation);
  }

  sweeperOwnerAddress(): Address {
    return this.address("sweeperOwner", 0);
  }

  withdrawalAddress(domainId: number): Address {
    return this.address("withdrawal", domainId);
  }

  private child(purpose: KeyPurpose, index: number): HDKey {
    if (!Number.isSafeInteger(index) || index < 0 || index > MAX_CHILD_INDEX) {
      throw new RangeError(`HD child index out of range: ${index}`);
    }
    return this.parents[purpose].deriveChild(index);
  }
}

const RING_KEY = Symbol.for("bsc-pay.keyring");
type RingHolder = { [RING_KEY]?: { mnemonic: string; ring: KeyRing } };

/** The process-wide key ring for `mnemonic` (built once; rebuilt only if the mnemonic changes, as in tests). */
export function keyRingFor(mnemonic: string): KeyRing {
  const holder = globalThis as RingHolder;
  const cached = holder[RING_KEY];
  if (cached && cached.mnemonic === mnemonic) return cached.ring;
  const ring = new KeyRing(mnemonic);
  holder[RING_KEY] = { mnemonic, ring };
  return ring;
}
