import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { describe, expect, it } from "vitest";
import { SideThread } from "@/lib/base/side-thread/side-thread";
import { DepositAddressDeriver, depositAddressDeriver } from "@/lib/engine/chain/deposit-address-deriver";
import { KeyRing } from "@/lib/engine/chain/keys";

const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
const OTHER_MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow";
const ANVIL_0_TO_2 = [
  "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
];

describe("DepositAddressDeriver (side thread, public BIP-32 derivation)", () => {
  it("derives m/44'/60'/0'/0/i exactly as the key ring does (anvil's published accounts)", async () => {
    const side = new SideThread();
    expect(await new DepositAddressDeriver(ANVIL_MNEMONIC, side).derive([0, 1, 2])).toEqual(ANVIL_0_TO_2);
    expect(side.available).toBe(true); // derived on the side thread, not by the fallback
  });

  it("agrees with the key ring on every address of a batch, small and large indices alike", async () => {
    const ring = new KeyRing(OTHER_MNEMONIC);
    const indices = [...Array.from({ length: 150 }, (_, i) => i), 4_095, 65_536, 1_000_003, 2 ** 31 - 1];
    const side = new SideThread();
    const onSideThread = await side.run("depositAddresses", { ...publicParent(OTHER_MNEMONIC), indices });
    expect(onSideThread).toEqual(indices.map((i) => ring.depositAddress(i)));
    expect(await depositAddressDeriver(OTHER_MNEMONIC).derive(indices)).toEqual(onSideThread);
    expect(await depositAddressDeriver(OTHER_MNEMONIC).derive([])).toEqual([]);
  });

  it("goes on with the key ring on the main thread when the side thread stops", async () => {
    const side = new SideThread();
    const deriver = new DepositAddressDeriver(ANVIL_MNEMONIC, side);
    expect(await deriver.derive([0])).toEqual([ANVIL_0_TO_2[0]]);
    const pending = deriver.derive([1, 2]);
    side.retire("test");
    expect(await pending).toEqual(ANVIL_0_TO_2.slice(1));
    expect(await deriver.derive([0, 1, 2])).toEqual(ANVIL_0_TO_2);
  });

  it("refuses an index past the last non-hardened child, even behind a good one in the same batch", async () => {
    const deriver = new DepositAddressDeriver(ANVIL_MNEMONIC, new SideThread());
    await expect(deriver.derive([2 ** 31 - 1, 2 ** 31])).rejects.toThrow(RangeError);
    await expect(deriver.derive([-1])).rejects.toThrow(RangeError);
  });

  it("keeps one deriver per mnemonic", () => {
    expect(depositAddressDeriver(ANVIL_MNEMONIC)).toBe(depositAddressDeriver(ANVIL_MNEMONIC));
    expect(depositAddressDeriver(ANVIL_MNEMONIC)).not.toBe(depositAddressDeriver(OTHER_MNEMONIC));
  });
});

function publicParent(mnemonic: string) {
  // The same parent the deriver sends: the public half of m/44'/60'/0'/0.
  const node = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive("m/44'/60'/0'/0");
  return { publicKey: node.publicKey!, chainCode: node.chainCode! };
}
