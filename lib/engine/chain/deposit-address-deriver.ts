/**
 * Deposit addresses m/44'/60'/0'/0/i in batches, derived on the side thread so that payment/create
 * does not pay for an elliptic-curve multiplication (~0.6 ms with the key ring on a 2-core VM) on the
 * event loop that serves requests.
 *
 * The side thread gets only the public parent (public key + chain code) and derives the children
 * the BIP-32 public way; no private key leaves the key ring. The key ring (keys.ts) stays the source
 * of truth for every key the service signs with: one address of every batch is derived again by it,
 * and a difference (or a side thread that cannot run) switches this process to the key ring alone.
 */

import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import type { Address } from "viem";
import { log } from "../../base/log";
import { type SideThread, sideThread } from "../../base/side-thread/side-thread";
import { keyRingFor, MAX_CHILD_INDEX } from "./keys";

const DEPOSIT_PARENT_PATH = "m/44'/60'/0'/0"; // keys.ts: deposit address i = m/44'/60'/0'/0/i
const MAIN_THREAD_SLICE = 8; // addresses derived between two turns of the event loop, without a side thread

export class DepositAddressDeriver {
  private parent: { publicKey: Uint8Array; chainCode: Uint8Array } | null = null;
  private useSideThread = true;

  constructor(
    private readonly mnemonic: string,
    private readonly side: SideThread = sideThread(),
  ) {}

  /** The addresses of `indices`, in order; null for an index BIP-32 has no key for (odds ~2^-127). */
  async derive(indices: number[]): Promise<(Address | null)[]> {
    if (indices.length === 0) return [];
    // Public derivation has no hardened children: past 2^31 − 1 it would make addresses the key
    // ring cannot sign for (and the batch check looks at one address only). Refuse, as the ring does.
    const outOfRange = indices.find((i) => !Number.isSafeInteger(i) || i < 0 || i > MAX_CHILD_INDEX);
    if (outOfRange !== undefined) throw new RangeError(`HD child index out of range: ${outOfRange}`);
    if (this.useSideThread && this.side.available) {
      try {
        const derived = (await this.side.run("depositAddresses", { ...this.publicParent(), indices })) as (Address | null)[];
        if (derived.length === indices.length && this.agreesWithKeyRing(indices, derived)) return derived;
      } catch (error) {
        if (this.side.available) log.error({ err: error }, "side thread could not derive deposit addresses; using the key ring");
      }
    }
    return this.fromKeyRing(indices);
  }

  /** One address per batch (the first with a key), derived again by the key ring; a difference retires the side thread's derivation. */
  private agreesWithKeyRing(indices: number[], derived: (Address | null)[]): boolean {
    const at = Math.max(
      0,
      derived.findIndex((a) => a !== null),
    );
    // biome-ignore lint/style/noNonNullAssertion: derive() calls this only when derived has as many entries as indices (at least one), and `at` is 0 or an index of derived
    if (derived[at] === this.keyRingAddress(indices[at]!)) return true;
    log.error({ index: indices[at] }, "side thread's deposit address differs from the key ring's; using the key ring from now on");
    this.useSideThread = false;
    return false;
  }

  private async fromKeyRing(indices: number[]): Promise<(Address | null)[]> {
    const out: (Address | null)[] = [];
    for (const index of indices) {
      out.push(this.keyRingAddress(index));
      if (out.length % MAIN_THREAD_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return out;
  }

  private keyRingAddress(index: number): Address | null {
    try {
      return keyRingFor(this.mnemonic).depositAddress(index);
    } catch (error) {
      if (error instanceof RangeError) throw error;
      return null; // BIP-32 has no key for this index (the tweak is out of range)
    }
  }

  private publicParent(): { publicKey: Uint8Array; chainCode: Uint8Array } {
    if (!this.parent) {
      const node = HDKey.fromMasterSeed(mnemonicToSeedSync(this.mnemonic)).derive(DEPOSIT_PARENT_PATH);
      // biome-ignore lint/style/noNonNullAssertion: a node derived from a master seed is a private one, so HDKey has computed its public key and chain code
      this.parent = { publicKey: node.publicKey!, chainCode: node.chainCode! };
    }
    return this.parent;
  }
}

const DERIVERS_KEY = Symbol.for("bsc-pay.deposit-address-derivers");
type Holder = { [DERIVERS_KEY]?: Map<string, DepositAddressDeriver> };

/** The process-wide deriver for `mnemonic`. */
export function depositAddressDeriver(mnemonic: string): DepositAddressDeriver {
  const holder = globalThis as Holder;
  holder[DERIVERS_KEY] ??= new Map();
  let deriver = holder[DERIVERS_KEY].get(mnemonic);
  if (!deriver) {
    deriver = new DepositAddressDeriver(mnemonic);
    holder[DERIVERS_KEY].set(mnemonic, deriver);
  }
  return deriver;
}
