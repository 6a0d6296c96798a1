import { createHmac, ECDH } from "node:crypto";
import { keccak_256 } from "@noble/hashes/sha3";
import * as secp256k1 from "tiny-secp256k1"; // libsecp256k1 as WebAssembly: 3x faster than OpenSSL's generic curve code here

/**
 * BIP-32 public derivation of children of a parent public key (child = parent + IL·G,
 * IL = HMAC-SHA512(chainCode, parentKey ‖ index)[0..32]) and their EIP-55 addresses, on the side
 * thread; lib/engine/chain/deposit-address-deriver.ts checks one of every batch against the key ring.
 * (The rules of this folder: entry.ts.)
 */

export interface PublicParent {
  publicKey: Uint8Array;
  chainCode: Uint8Array;
}

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n; // the order of secp256k1
const SLICE = 4; // addresses between two turns of the thread's event loop, so a QR request never waits long

/** The addresses of `indices`, in order; null for an index BIP-32 has no key for. */
export async function depositAddresses(request: PublicParent & { indices: number[] }): Promise<(string | null)[]> {
  const parent = parentOf(request.publicKey);
  const chainCode = Buffer.from(request.chainCode);
  const out: (string | null)[] = [];
  for (const index of request.indices) {
    if (out.length > 0 && out.length % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    out.push(childAddress(parent, chainCode, index));
  }
  return out;
}

type Parent = { key: Buffer; point: Buffer };
const parents = new Map<string, Parent>();

function parentOf(publicKey: Uint8Array): Parent {
  const key = Buffer.from(publicKey);
  let parent = parents.get(key.toString("hex"));
  if (!parent) {
    // Uncompressed once, so each child's addition need not decompress it again.
    parent = { key, point: ECDH.convertKey(key, "secp256k1", undefined, undefined, "uncompressed") as Buffer };
    parents.set(key.toString("hex"), parent);
  }
  return parent;
}

function childAddress(parent: Parent, chainCode: Buffer, index: number): string | null {
  const data = Buffer.alloc(37);
  parent.key.copy(data, 0);
  data.writeUInt32BE(index, 33);
  const il = createHmac("sha512", chainCode).update(data).digest().subarray(0, 32);
  const tweak = BigInt(`0x${il.toString("hex")}`);
  if (tweak === 0n || tweak >= N) return null;
  // IL·G on the generator's tables, then one addition: about a quarter cheaper than pointAddScalar (tweak-add).
  const tweakPoint = secp256k1.pointFromScalar(il, false);
  const child = tweakPoint && secp256k1.pointAdd(parent.point, tweakPoint, false); // null at infinity
  if (!child) return null;
  return checksummed(
    Buffer.from(keccak_256(child.subarray(1)))
      .subarray(12)
      .toString("hex"),
  );
}

function checksummed(lowerHex: string): string {
  const hash = keccak_256(Buffer.from(lowerHex, "ascii"));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    // biome-ignore lint/style/noNonNullAssertion: i >> 1 < 20 ≤ the hash's 32 bytes
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 15;
    out += nibble >= 8 ? lowerHex[i]?.toUpperCase() : lowerHex[i];
  }
  return out;
}
