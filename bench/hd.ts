import { mnemonicToAccount } from "viem/accounts";
import { KeyRing } from "@/lib/engine/chain/keys";

/** HD derivation speed: the key ring (parent derived once) against viem's per-call derivation. */
const MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow";

function perCall(label: string, count: number, fn: (i: number) => unknown): number {
  const start = performance.now();
  for (let i = 0; i < count; i++) fn(i);
  const ms = (performance.now() - start) / count;
  console.log(`${label.padEnd(44)} ${ms.toFixed(3)} ms each (${count} runs)`);
  return ms;
}

const setupStart = performance.now();
const ring = new KeyRing(MNEMONIC);
console.log(`${"key ring set-up (seed + 3 parents)".padEnd(44)} ${(performance.now() - setupStart).toFixed(1)} ms once`);
const ours = perCall("deposit address, key ring", 2000, (i) => ring.depositAddress(i));
perCall("deposit signer, key ring", 500, (i) => ring.signer("deposit", i));
const viem = perCall("deposit address, viem mnemonicToAccount", 20, (i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }));
console.log(`speed-up ${(viem / ours).toFixed(0)}x (target: ~1 ms per child)`);
