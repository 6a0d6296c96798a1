import { eq } from "drizzle-orm";
import { type Address, createWalletClient, getAddress, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { GET as list, POST as register } from "@/app/api/user/tokens/route";
import { tokenCatalogue, tokens } from "@/lib/db/schema";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { tokensCommand } from "@/lib/ops/admin/tokens";
import { signUp } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const config = () => useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });

/** A contract that reverts on every call: code, but no ERC-20. */
async function deployRevertingContract(): Promise<Address> {
  const wallet = createWalletClient({ account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[0]!), transport: http(chain().url) });
  const hash = await wallet.sendTransaction({ chain: null, data: "0x6005600c60003960056000f360006000fd" });
  const receipt = await chain().client.waitForTransactionReceipt({ hash });
  return getAddress(receipt.contractAddress!);
}

const allow = (address: Address, ...flags: string[]) => tokensCommand(db(), ["allow", "bsc", address, ...flags]);
// Open token registration needs closed sign-up (lib/base/config): merchants are signed up before it.
const open = () =>
  useConfig({
    BSC_RPC_URL: chain().url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    OPEN_TOKEN_REGISTRATION: "true",
    REGISTRATION: "closed",
  });

describe("tokens", () => {
  it("registers catalogue tokens with the symbol and decimals the operator's catalogue read from the chain", async () => {
    config();
    const { auth } = await signUp();
    const usd = await deployTestToken(chain().url, { symbol: "USDX", decimals: 18 });
    const six = await deployTestToken(chain().url, { symbol: "SIX", decimals: 6 });
    expect(await allow(usd)).toEqual([
      expect.stringMatching(
        /^allowed: bsc .* USDX .*18 decimals {2}min forward 0 {2}min withdrawal 0\.01 \(default\) {2}min payment 0 \(default\) {2}enabled$/,
      ),
    ]);
    await allow(six, "--min-forward", "0.5");
    const first = await call(register, { method: "POST", headers: auth, body: { contractAddress: usd.toLowerCase(), network: "bsc" } });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      success: true,
      data: { tokenId: expect.any(Number), symbol: "USDX", name: "USDX Token", decimals: 18, contractAddress: usd, network: "bsc" },
    });
    const second = await call(register, { method: "POST", headers: auth, body: { contractAddress: six, network: "bsc" } });
    expect(second.body.data).toMatchObject({ symbol: "SIX", decimals: 6 });

    const again = await call(register, {
      method: "POST",
      headers: auth,
      body: { contractAddress: usd.toUpperCase().replace("0X", "0x"), network: "bsc" },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.tokenId).toBe(first.body.data.tokenId);

    const listed = await call(list, { headers: auth });
    expect(listed.body.data.map((t: { symbol: string }) => t.symbol)).toEqual(["USDX", "SIX"]);
  });

  it.each([
    [{ contractAddress: "0x1234", network: "bsc" }, "contractAddress must be a 0x-prefixed 20-byte address"],
    [{ contractAddress: "0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266", network: "bsc" }, "valid checksum"],
    [{ contractAddress: 7, network: "bsc" }, "contractAddress must be a string"],
    [{ contractAddress: "0x55d398326f99059fF775485246999027B3197955", network: "ethereum" }, 'network "ethereum" is not configured'],
    [{ contractAddress: "0x55d398326f99059fF775485246999027B3197955" }, "network"],
    [{ contractAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", network: "bsc" }, "this gateway does not accept the token"],
  ])("rejects %j with VALIDATION_ERROR and stores nothing", async (body, message) => {
    config();
    const { auth } = await signUp();
    const before = (await db().select().from(tokens)).length;
    const res = await call(register, { method: "POST", headers: auth, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.message).toContain(message);
    expect((await db().select().from(tokens)).length).toBe(before);
  });

  it("refuses a token outside the catalogue, saying the operator can allow it; then accepts it once allowed", async () => {
    config();
    const { auth } = await signUp();
    const address = await deployTestToken(chain().url, { symbol: "NEW" });
    const before = (await db().select().from(tokens)).length;
    const refused = await call(register, { method: "POST", headers: auth, body: { contractAddress: address, network: "bsc" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(refused.body.error.message).toContain(`does not accept the token ${address} on bsc`);
    expect(refused.body.error.message).toContain(`npm run admin -- tokens allow bsc ${address}`);
    expect((await db().select().from(tokens)).length).toBe(before);

    await allow(address);
    expect((await call(register, { method: "POST", headers: auth, body: { contractAddress: address, network: "bsc" } })).status).toBe(201);
  });

  it("refuses a disallowed token, even with open registration, and the catalogue keeps the operator's minimum", async () => {
    config();
    const { auth } = await signUp();
    const address = await deployTestToken(chain().url, { symbol: "OFF" });
    await allow(address, "--min-forward", "2.5");
    expect(await tokensCommand(db(), ["disallow", "bsc", address])).toEqual([expect.stringContaining("disabled")]);
    open();
    const res = await call(register, { method: "POST", headers: auth, body: { contractAddress: address, network: "bsc" } });
    expect(res.status).toBe(400);
    // Allowing again re-enables it and updates the minimum; without --min-forward the minimum stays.
    await allow(address, "--min-forward", "3");
    await allow(address);
    const [entry] = await db().select().from(tokenCatalogue).where(eq(tokenCatalogue.contractAddress, address));
    expect(entry).toMatchObject({ enabled: true, minForwardAmount: 3n * 10n ** 18n, symbol: "OFF", decimals: 18 });
    config();
  });

  it("lists the catalogue, seeded with USDT and USDC on bsc and the demo token on local", async () => {
    const lines = await tokensCommand(db(), ["list"]);
    expect(lines.join("\n")).toMatch(
      /bsc +0x55d398326f99059fF775485246999027B3197955 +USDT +18 decimals +min forward 0\.1 +min withdrawal 0\.1 \(default\) +min payment 0\.1 \(default\) +enabled/,
    );
    expect(lines.join("\n")).toContain("0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d  USDC");
    expect(lines.join("\n")).toMatch(/local +0xe9bdd65d1d9B1898EBa08387D38Cc19BFe6b5CA2 +DUSD/);
  });

  it("refuses bad operator input without changing the catalogue", async () => {
    config();
    const before = await db().select().from(tokenCatalogue);
    await expect(tokensCommand(db(), ["allow", "bsc", "0x1234"])).rejects.toThrow(/not a 0x-prefixed/);
    await expect(tokensCommand(db(), ["allow", "ethereum", "0x55d398326f99059fF775485246999027B3197955"])).rejects.toThrow(
      /not configured/,
    );
    await expect(tokensCommand(db(), ["allow", "bsc", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"])).rejects.toThrow(
      /no contract is deployed/,
    );
    const usd = await deployTestToken(chain().url, { symbol: "MIN", decimals: 6 });
    await expect(tokensCommand(db(), ["allow", "bsc", usd, "--min-forward", "0.0000001"])).rejects.toThrow(/more than 6 decimal places/);
    await expect(tokensCommand(db(), ["allow", "bsc", usd, "--min-forward"])).rejects.toThrow(/needs a value/);
    await expect(tokensCommand(db(), ["disallow", "bsc", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"])).rejects.toThrow(
      /not in the catalogue/,
    );
    expect(await db().select().from(tokenCatalogue)).toEqual(before);
  });

  describe("OPEN_TOKEN_REGISTRATION=true (single-merchant installs)", () => {
    it("accepts any ERC-20 the chain vouches for and adds it to the catalogue", async () => {
      const { auth } = await signUp();
      open();
      const address = await deployTestToken(chain().url, { symbol: "ANY", decimals: 6 });
      const res = await call(register, { method: "POST", headers: auth, body: { contractAddress: address, network: "bsc" } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ symbol: "ANY", decimals: 6 });
      const [entry] = await db().select().from(tokenCatalogue).where(eq(tokenCatalogue.contractAddress, address));
      expect(entry).toMatchObject({ enabled: true, addedBy: "merchant" });
      config();
    });

    it("refuses a contract that does not answer decimals(), or no contract at all", async () => {
      const { auth } = await signUp();
      open();
      const address = await deployRevertingContract();
      const res = await call(register, { method: "POST", headers: auth, body: { contractAddress: address, network: "bsc" } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(`the contract at ${address} does not answer ERC-20 decimals()`);
      const none = await call(register, {
        method: "POST",
        headers: auth,
        body: { contractAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", network: "bsc" },
      });
      expect(none.body.error.message).toContain("no contract is deployed at");
      config();
    });
  });

  it("answers BLOCKCHAIN_ERROR when the network's RPC is down (open registration reads the chain)", async () => {
    const { auth } = await signUp();
    useConfig({
      BSC_RPC_URL: "http://127.0.0.1:1",
      NEXTAUTH_SECRET: "integration-test-secret-0123456789",
      OPEN_TOKEN_REGISTRATION: "true",
      REGISTRATION: "closed",
    });
    const res = await call(register, {
      method: "POST",
      headers: auth,
      body: { contractAddress: "0x976EA74026E726554dB657fA54763abd0C3a0aa9", network: "bsc" },
    });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("BLOCKCHAIN_ERROR");
    config();
  });

  it("keeps users apart: B does not see A's tokens, and registers its own copy", async () => {
    config();
    const alice = await signUp();
    const bob = await signUp();
    const address = await deployTestToken(chain().url, { symbol: "ALC" });
    await allow(address);
    const mine = await call(register, { method: "POST", headers: alice.auth, body: { contractAddress: address, network: "bsc" } });
    expect((await call(list, { headers: bob.auth })).body.data).toEqual([]);
    const theirs = await call(register, { method: "POST", headers: bob.auth, body: { contractAddress: address, network: "bsc" } });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.tokenId).not.toBe(mine.body.data.tokenId);
  });
});
