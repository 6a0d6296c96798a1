/**
 * "Before the cancel" by block number (docs/design.md §8): on a chain with four blocks a
 * second, a transfer sent after the cancel and mined in the same second is a late deposit, not a
 * payment of the cancelled order; a transfer in the latest block at cancel time still pays it.
 */
import { eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as cancel } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { paymentSessions } from "@/lib/db/schema";
import { scanNetworkStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { payTo } from "../helpers/engine";
import { call } from "../helpers/http";

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56, blockTime: 0.25 });
let merchant: Merchant;
let token: Address;

const newSession = async () =>
  (await call(create, { method: "POST", headers: { "x-api-key": merchant.apiKey }, body: { tokenId: merchant.tokenId, amount: "3" } })).body
    .data as { sessionId: string; depositAddress: Address };
const cancelSession = (sessionId: string) =>
  call(cancel, { method: "POST", headers: { "x-api-key": merchant.apiKey }, params: { sessionId } });
const statusOf = async (sessionId: string) =>
  (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data;
/** Scans until the cursor has passed `block` (the chain keeps mining four blocks a second). */
async function scanUntilPast(block: bigint) {
  for (let i = 0; i < 100; i++) {
    const result = await scanNetworkStep(db(), "bsc");
    if (result.behind === 0 && (await chain().client.getBlockNumber({ cacheTime: 0 })) > block) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the scanner did not pass block ${block}`);
}
/** Waits for the first quarter of a wall-clock second, so that what follows happens within that second. */
async function startOfSecond() {
  while (Date.now() % 1000 > 150) await new Promise((r) => setTimeout(r, 10));
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  token = await deployTestToken(chain().url, { symbol: "ORD" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
});

describe("cancel and transfer within one second", () => {
  it("records the network's latest block with the cancel; a transfer mined after it in the same second is late", async () => {
    const session = await newSession();
    await startOfSecond();
    const cancelled = await cancelSession(session.sessionId);
    expect(cancelled.body.data.status).toBe("cancelled");
    const hash = await payTo(chain().url, token, session.depositAddress, parseUnits("3", 18));
    const receipt = await chain().client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, session.sessionId));
    const cancelledAtBlock = row?.cancelledAtBlock ?? null;
    const cancelledAt = row?.cancelledAt ?? null;
    const block = await chain().client.getBlock({ blockNumber: receipt.blockNumber });

    // The case the rule exists for: block time alone would say "mined at or before the cancel".
    expect(cancelledAtBlock).not.toBeNull();
    expect(receipt.blockNumber).toBeGreaterThan(cancelledAtBlock ?? 0n);
    expect(Number(block.timestamp) * 1000).toBeLessThanOrEqual(cancelledAt?.getTime() ?? 0);

    await scanUntilPast(receipt.blockNumber);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "cancelled", late: true, lateAmount: "3" });
  });

  it("still completes a session whose transfer is in a block up to the latest at cancel time", async () => {
    const session = await newSession();
    const hash = await payTo(chain().url, token, session.depositAddress, parseUnits("3", 18));
    const receipt = await chain().client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    // The gateway has not seen it yet when the cancel comes.
    const cancelled = await cancelSession(session.sessionId);
    expect(cancelled.body.data.status).toBe("cancelled");
    const [row] = await db().select().from(paymentSessions).where(eq(paymentSessions.id, session.sessionId));
    expect(row?.cancelledAtBlock ?? 0n).toBeGreaterThanOrEqual(receipt.blockNumber);

    await scanUntilPast(receipt.blockNumber);
    expect(await statusOf(session.sessionId)).toMatchObject({ status: "completed", txHash: hash, receivedAmount: "3" });
  });
});
