import { describe, expect, it } from "vitest";
import { allocateNonce } from "@/lib/engine/ledger/nonces";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();
const WALLET = "0x8C8d35429F74ec245F8Ef2f4Fd1e551cFF97d650";

describe("allocateNonce", () => {
  it("hands out consecutive nonces, jumping ahead to the chain's count when it is higher", async () => {
    expect(await db().transaction((tx) => allocateNonce(tx, "bsc", WALLET, 3))).toBe(3);
    expect(await db().transaction((tx) => allocateNonce(tx, "bsc", WALLET, 0))).toBe(4);
    expect(await db().transaction((tx) => allocateNonce(tx, "bsc", WALLET, 9))).toBe(9);
  });

  it("gives a nonce back when its transaction rolls back, so no hole is left", async () => {
    await expect(
      db().transaction(async (tx) => {
        expect(await allocateNonce(tx, "bsc", WALLET, 0)).toBe(10);
        throw new Error("the signed transaction could not be stored");
      }),
    ).rejects.toThrow("could not be stored");
    expect(await db().transaction((tx) => allocateNonce(tx, "bsc", WALLET, 0))).toBe(10);
  });

  it("never gives two concurrent senders the same nonce", async () => {
    const nonces = await Promise.all(
      Array.from({ length: 20 }, () => db().transaction((tx) => allocateNonce(tx, "bsc-testnet", WALLET, 0))),
    );
    expect([...nonces].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
