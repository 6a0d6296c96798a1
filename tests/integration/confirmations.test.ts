/**
 * When a transfer counts (docs/design.md §20): CONFIRMATIONS=1 is the block that holds it, so a payment
 * completes as soon as that block exists, with no block on top; CONFIRMATIONS=finalized waits for
 * the chain's finalized tag (anvil here finalizes the head − 2, as BSC's fast finality does).
 * Withdrawals follow the same rule.
 */
import { eq } from "drizzle-orm";
import { type Address, parseEther, parseUnits } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { scanNetworkStep, tendLedgerStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo } from "../helpers/engine";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56, slotsInAnEpoch: 1 });
const SECRET = "integration-test-secret-0123456789";
let merchant: Merchant;
let token: Address;

async function paidSession(amount: string): Promise<{ sessionId: string; block: bigint }> {
  const created = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: merchant.tokenId, amount },
  });
  const hash = await payTo(chain().url, token, created.body.data.depositAddress, parseUnits(amount, 18));
  const receipt = await chain().client.waitForTransactionReceipt({ hash });
  return { sessionId: created.body.data.sessionId, block: receipt.blockNumber };
}
const statusOf = async (sessionId: string) =>
  (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data.status as string;
const scan = async () => {
  for (let i = 0; i < 10; i++) if ((await scanNetworkStep(db(), "bsc")).behind === 0) return;
};

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1" });
  await fundGasTank(chain().url);
  const placeholder = await deployTestToken(chain().url, { symbol: "CNF" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  token = placeholder;
});

describe("CONFIRMATIONS counts the block that holds the transfer as the first", () => {
  it("completes a payment with CONFIRMATIONS=1 as soon as its block exists, no block on top", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1" });
    const { sessionId, block } = await paidSession("1");
    expect(await chain().client.getBlockNumber({ cacheTime: 0 })).toBe(block); // nothing mined on top of it
    await scan();
    expect(await statusOf(sessionId)).toBe("completed");
  });

  it("waits for one block on top with CONFIRMATIONS=2", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "2" });
    const { sessionId } = await paidSession("1");
    await scan();
    expect(await statusOf(sessionId)).toBe("pending");
    await chain().client.mine({ blocks: 1 });
    await scan();
    expect(await statusOf(sessionId)).toBe("completed");
  });

  it("waits for the finalized tag with CONFIRMATIONS=finalized", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "finalized" });
    const { sessionId, block } = await paidSession("1");
    for (const [mined, expected] of [
      [0, "pending"],
      [1, "pending"],
      [1, "completed"], // its block + 2: finalized
    ] as const) {
      await chain().client.mine({ blocks: mined });
      await scan();
      const finalized = (await chain().client.getBlock({ blockTag: "finalized" })).number;
      expect(await statusOf(sessionId), `finalized ${finalized}, the transfer in ${block}`).toBe(expected);
    }
  });

  it("makes a withdrawal final only once its block is finalized under CONFIRMATIONS=finalized", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "finalized" });
    const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
    await chain().client.setBalance({ address: wallet, value: parseEther("1") });
    await payTo(chain().url, token, wallet, parseUnits("5", 18));
    const sent = await call(send, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey, "idempotency-key": "finalized-withdrawal" },
      body: {
        domainId: merchant.domainId,
        tokenId: merchant.tokenId,
        amount: "2",
        toAddress: "0x00000000000000000000000000000000DeaDBeef",
      },
    });
    expect(sent.status).toBe(201);
    const withdrawalId = sent.body.data.withdrawalId as string;
    const statusNow = async () => (await db().select().from(withdrawals).where(eq(withdrawals.id, withdrawalId)))[0]?.status;
    await tendLedgerStep(db());
    expect(await statusNow()).toBe("submitted"); // mined, not finalized
    await chain().client.mine({ blocks: 1 });
    await tendLedgerStep(db());
    expect(await statusNow()).toBe("submitted");
    await chain().client.mine({ blocks: 1 });
    await tendLedgerStep(db());
    expect(await statusNow()).toBe("completed");
  });
});
