import { mnemonicToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { KeyRing, keyRingFor } from "@/lib/engine/chain/keys";

const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
const ring = new KeyRing(ANVIL_MNEMONIC);

describe("KeyRing (docs/design.md §7 derivation paths)", () => {
  it("derives deposit addresses at m/44'/60'/0'/0/i (anvil's published accounts)", () => {
    expect(ring.depositAddress(0)).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(ring.depositAddress(1)).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(ring.depositAddress(9)).toBe("0xa0Ee7A142d267C1f36714E4a8F75612F20a79720");
  });

  it("derives the gas tank at m/44'/60'/1'/0/0 and domain wallets at m/44'/60'/2'/0/d", () => {
    expect(ring.gasTankAddress()).toBe(mnemonicToAccount(ANVIL_MNEMONIC, { accountIndex: 1 }).address);
    expect(ring.gasTankAddress()).toBe("0x8C8d35429F74ec245F8Ef2f4Fd1e551cFF97d650");
    for (const d of [1, 7, 1234]) {
      expect(ring.withdrawalAddress(d)).toBe(mnemonicToAccount(ANVIL_MNEMONIC, { accountIndex: 2, addressIndex: d }).address);
    }
  });

  it("signs with the key of the address it derives", () => {
    expect(ring.signer("deposit", 5).address).toBe("0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc");
    expect(ring.signer("gasTank", 0).address).toBe(ring.gasTankAddress());
    expect(ring.signer("withdrawal", 3).address).toBe(ring.withdrawalAddress(3));
  });

  it("gives distinct addresses per purpose and index", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) seen.add(ring.depositAddress(i));
    seen.add(ring.gasTankAddress());
    seen.add(ring.withdrawalAddress(0));
    expect(seen.size).toBe(202);
  });

  it("rejects indexes outside the non-hardened range", () => {
    expect(() => ring.depositAddress(-1)).toThrow(RangeError);
    expect(() => ring.depositAddress(2 ** 31)).toThrow(RangeError);
    expect(() => ring.depositAddress(1.5)).toThrow(RangeError);
  });

  it("keeps one ring per mnemonic", () => {
    expect(keyRingFor(ANVIL_MNEMONIC)).toBe(keyRingFor(ANVIL_MNEMONIC));
    expect(keyRingFor(ANVIL_MNEMONIC).depositAddress(0)).toBe(ring.depositAddress(0));
  });
});
