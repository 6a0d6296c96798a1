import { createWalletClient, getAddress, http, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { GET as list, POST as register } from "@/app/api/user/tokens/route";
import { tokens } from "@/lib/db/schema";
import { ANVIL_DEFAULT_KEYS } from "@/lib/chain/demo-token";
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

describe("tokens", () => {
  it("registers BEP-20 contracts with what the chain says (18 and 6 decimals), checksummed", async () => {
    config();
    const { auth } = await signUp();
    const usd = await deployTestToken(chain().url, { symbol: "USDX", decimals: 18 });
    const six = await deployTestToken(chain().url, { symbol: "SIX", decimals: 6 });
    const first = await call(register, { method: "POST", headers: auth, body: { contractAddress: usd.toLowerCase(), network: "bsc" } });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      success: true,
      data: { tokenId: expect.any(Number), symbol: "USDX", name: "USDX Token", decimals: 18, contractAddress: usd, network: "bsc" },
    });
    const second = await call(register, { method: "POST", headers: auth, body: { contractAddress: six, network: "bsc" } });
    expect(second.body.data).toMatchObject({ symbol: "SIX", decimals: 6 });

    const again = await call(register, { method: "POST", headers: auth, body: { contractAddress: usd.toUpperCase().replace("0X", "0x"), network: "bsc" } });
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
    [{ contractAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", network: "bsc" }, "no contract is deployed at"],
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

  it("refuses a contract that does not answer decimals()", async () => {
    const { auth } = await signUp();
    const address = await deployRevertingContract();
    const res = await call(register, { method: "POST", headers: auth, body: { contractAddress: address, network: "bsc" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(`the contract at ${address} does not answer ERC-20 decimals()`);
  });

  it("answers BLOCKCHAIN_ERROR when the network's RPC is down", async () => {
    useConfig({ BSC_RPC_URL: "http://127.0.0.1:1", NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
    const { auth } = await signUp();
    const res = await call(register, {
      method: "POST",
      headers: auth,
      body: { contractAddress: "0x55d398326f99059fF775485246999027B3197955", network: "bsc" },
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
    const mine = await call(register, { method: "POST", headers: alice.auth, body: { contractAddress: address, network: "bsc" } });
    expect((await call(list, { headers: bob.auth })).body.data).toEqual([]);
    const theirs = await call(register, { method: "POST", headers: bob.auth, body: { contractAddress: address, network: "bsc" } });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.tokenId).not.toBe(mine.body.data.tokenId);
  });
});
