/**
 * One network's scan failing never stops another's, under either driver. Two
 * networks are configured: bsc, whose RPC fails every call from the second test on, and
 * bsc-testnet, healthy. bsc comes first in every round (configuration order), so a driver that
 * let bsc's error end the round would never reach bsc-testnet and miss its payment.
 */
import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { SCAN_ROUNDS, scanChains } from "@/inngest/functions/scan-chains";
import { getDatabase } from "@/lib/db";
import { chainCursors } from "@/lib/db/schema";
import { startEmbeddedRunner } from "@/lib/ops/jobs/embedded-runner";
import { configuredNetworks, scanNetworkStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { payTo } from "../helpers/engine";
import { call } from "../helpers/http";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";

// The Inngest client reads INNGEST_DEV when it is created, at import: no Inngest Cloud here.
vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const failing = useTestChain({ chainId: 56 });
const healthy = useTestChain({ chainId: 97 });

let proxy: RpcProxy;
let token: Address;
let merchant: Merchant;

beforeAll(async () => {
  proxy = await startRpcProxy(failing().url);
  useConfig({
    BSC_RPC_URL: proxy.url,
    BSC_TESTNET_RPC_URL: healthy().url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    CONFIRMATIONS: "1",
    SCAN_INTERVAL_MS: "200",
    JOBS: "inngest",
    INNGEST_DEV: "1",
  });
  token = await deployTestToken(healthy().url, { symbol: "ISO" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc-testnet" });
  // bsc was scanned while its node answered (its cursor exists), then its node goes away for good.
  await failing().client.mine({ blocks: 2 });
  await scanNetworkStep(db(), "bsc");
  proxy.options.down = true;
});
afterAll(async () => proxy.close());

/** A session on the healthy network, paid in full and confirmed. */
async function paidSession(amount: string): Promise<{ sessionId: string; depositAddress: Address }> {
  const created = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: merchant.tokenId, amount },
  });
  const { sessionId, depositAddress } = created.body.data;
  await healthy().client.waitForTransactionReceipt({ hash: await payTo(healthy().url, token, depositAddress, parseUnits(amount, 18)) });
  await healthy().client.mine({ blocks: 1 });
  return { sessionId, depositAddress };
}

const statusOf = async (sessionId: string) =>
  (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data.status;

const bscError = async () => (await db().select().from(chainCursors).where(eq(chainCursors.network, "bsc")))[0]?.lastError;

describe("a network whose RPC fails", () => {
  it("comes first in every round", () => {
    expect(configuredNetworks()).toEqual(["bsc", "bsc-testnet"]);
  });

  it("does not stop scan-chains (Inngest) from detecting a payment on another network in the same round", async () => {
    const session = await paidSession("3");
    const handed: unknown[] = [];
    const { result, error } = await new InngestTestEngine({
      function: scanChains,
      steps: [
        // Its sleeps and hand-overs, mocked by step id.
        ...Array.from({ length: SCAN_ROUNDS }, (_, i) => ({ id: `pause-${i}`, handler: () => undefined })),
        ...Array.from({ length: SCAN_ROUNDS }, (_, i) => ({ id: `forward-${i}`, handler: () => void handed.push(i) })),
      ],
    }).execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ transfers: 1 });
    expect(handed).toEqual([0]); // the healthy network's deposit was handed over in the first round
    expect(await statusOf(session.sessionId)).toBe("completed");
    expect(await bscError()).toMatch(/\S/); // the failing network's error is recorded for it
  });

  it("does not stop the embedded runner from detecting a payment on another network", async () => {
    const runner = startEmbeddedRunner(await getDatabase());
    try {
      const session = await paidSession("4");
      await expect.poll(() => statusOf(session.sessionId), { timeout: 15_000, interval: 200 }).toBe("completed");
      // The round that recorded it ends a moment after the commit the status reads.
      await expect.poll(() => runner.state.lastScanAt, { timeout: 5_000, interval: 100 }).not.toBeNull();
      expect(await bscError()).toMatch(/\S/);
    } finally {
      await runner.stop();
    }
  });
});
