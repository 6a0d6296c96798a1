import { parseUnits, type Address } from "viem";
import { describe, expect, it } from "vitest";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { networkConfig } from "@/lib/chain/networks";
import { ensureStarted } from "@/lib/startup";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain(); // anvil's own chain id, 31337, behind BSC_RPC_URL
const MERCHANT_WALLET = "0xcd3B766CCDd6AE721141F452C550Ca635964ce71" as Address;

describe("a node whose chain id is not the network's usual one", () => {
  it("is signed for with the node's own chain id, so payments still forward", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
    await ensureStarted();
    expect(networkConfig("bsc")!.chainId).toBe(31337);
    const token = await deployTestToken(chain().url, { symbol: "CID" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    await fundGasTank(chain().url);
    const created = await call(create, { method: "POST", headers: { "x-api-key": merchant.apiKey }, body: { tokenId: merchant.tokenId, amount: "2", merchantWallet: MERCHANT_WALLET } });
    const { sessionId, depositAddress } = created.body.data;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, depositAddress, parseUnits("2", 18)) });
    await chain().client.mine({ blocks: 1 });
    await runEngine(db(), chain().url);
    expect((await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data.status).toBe("completed");
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(parseUnits("2", 18));
  });
});
