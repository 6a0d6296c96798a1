import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Address, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { networkConfig } from "@/lib/engine/chain/networks";
import { verifyChainIds } from "@/lib/engine/chain/verify-chain-ids";
import { ensureStarted } from "@/lib/ops/startup/startup";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain(); // anvil's own chain id, 31337, behind BSC_RPC_URL
const MERCHANT_WALLET = "0xcd3B766CCDd6AE721141F452C550Ca635964ce71" as Address;

describe("a development node (anvil's 31337) playing BSC", () => {
  it("is signed for with the node's own chain id, so payments still forward", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
    await ensureStarted();
    expect(networkConfig("bsc")!.chainId).toBe(31337);
    const token = await deployTestToken(chain().url, { symbol: "CID" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    await fundGasTank(chain().url);
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "2", merchantWallet: MERCHANT_WALLET },
    });
    const { sessionId, depositAddress } = created.body.data;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, depositAddress, parseUnits("2", 18)) });
    await chain().client.mine({ blocks: 1 });
    await runEngine(db(), chain().url);
    expect((await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data.status).toBe("completed");
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(parseUnits("2", 18));
  });
});

describe("a node on the wrong chain", () => {
  const testnet = useTestChain({ chainId: 97 });
  const fakeNode = (chainIdHex: string) =>
    new Promise<{ url: string; close: () => void }>((resolve) => {
      const server = createServer((req, res) => {
        let body = "";
        req.on("data", (d: Buffer) => (body += d.toString()));
        req.on("end", () =>
          res
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(body).id, result: chainIdHex })),
        );
      });
      server.listen(0, "127.0.0.1", () =>
        resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
      );
    });

  it("refuses to start: a testnet node behind BSC_RPC_URL, or a node that says chain id 0", async () => {
    const config = useConfig({ BSC_RPC_URL: testnet().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
    await expect(verifyChainIds(config.networks.filter((n) => !n.embedded))).rejects.toThrow(
      "the RPC node of bsc is on chain 97, not 56; refusing to start",
    );
    const zero = await fakeNode("0x0");
    try {
      const zeroConfig = useConfig({ BSC_RPC_URL: zero.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
      await expect(verifyChainIds(zeroConfig.networks.filter((n) => !n.embedded))).rejects.toThrow("reports chain id 0");
    } finally {
      zero.close();
    }
    // The testnet itself is fine where it belongs.
    const right = useConfig({ BSC_TESTNET_RPC_URL: testnet().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
    await verifyChainIds(right.networks.filter((n) => !n.embedded));
    expect(right.networks.find((n) => n.name === "bsc-testnet")!.chainId).toBe(97);
  });
});

describe("every RPC URL of a network is checked, not only the first", () => {
  const mainnet = useTestChain({ chainId: 56 });
  const testnet = useTestChain({ chainId: 97 });
  const anvil = useTestChain();
  const secret = "NEXTAUTH_SECRET";

  it("refuses a fallback URL on another chain, naming the variable and the entry", async () => {
    const config = useConfig({ BSC_RPC_URL: `${mainnet().url},${testnet().url}`, [secret]: "integration-test-secret-0123456789" });
    await expect(verifyChainIds(config.networks.filter((n) => !n.embedded))).rejects.toThrow(
      /^BSC_RPC_URL \(entry 2, 127\.0\.0\.1:\d+\): the RPC node of bsc is on chain 97, not 56/,
    );
    // Both on the right chain: fine.
    const both = useConfig({ BSC_RPC_URL: `${mainnet().url},${mainnet().url}`, [secret]: "integration-test-secret-0123456789" });
    await verifyChainIds(both.networks.filter((n) => !n.embedded));
    expect(both.networks[0]!.chainId).toBe(56);
  });

  it("refuses a development chain behind bsc or bsc-testnet outside the test suite, as first or as fallback URL", async () => {
    for (const [variable, urls] of [
      ["BSC_RPC_URL", anvil().url],
      ["BSC_RPC_URL", `${mainnet().url},${anvil().url}`],
      ["BSC_TESTNET_RPC_URL", `${testnet().url},${anvil().url}`],
    ] as const) {
      const config = useConfig({ NODE_ENV: "production", [variable]: urls, [secret]: "integration-test-secret-0123456789" });
      await expect(verifyChainIds(config.networks.filter((n) => !n.embedded))).rejects.toThrow(
        new RegExp(`^${variable} \\(entry \\d, 127\\.0\\.0\\.1:\\d+\\): .* is a development chain \\(id 31337\\)`),
      );
    }
  });

  it("refuses a development node mixed with a real one even in the test suite (the fallback would switch chains)", async () => {
    const config = useConfig({ BSC_RPC_URL: `${anvil().url},${mainnet().url}`, [secret]: "integration-test-secret-0123456789" });
    await expect(verifyChainIds(config.networks.filter((n) => !n.embedded))).rejects.toThrow("are on different chains");
  });
});
