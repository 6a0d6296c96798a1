import { type Address, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { getDatabase } from "@/lib/db";
import { openPostgres } from "@/lib/db/client";
import { startEmbeddedRunner } from "@/lib/ops/jobs/embedded-runner";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { createTestDatabase, useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { startWebhookReceiver } from "../helpers/webhook-receiver";

useTestDatabase();
const chain = useTestChain({ chainId: 56, blockTime: 0.45 });
const MERCHANT_WALLET = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720" as Address;

describe("embedded runner", () => {
  it("detects a payment within seconds, completes the session, tells the shop's webhook and forwards the funds", async () => {
    useConfig({
      BSC_RPC_URL: chain().url,
      NEXTAUTH_SECRET: "integration-test-secret-0123456789",
      CONFIRMATIONS: "1",
      SCAN_INTERVAL_MS: "200",
      WEBHOOK_ALLOW_PRIVATE: "true",
    });
    const token = await deployTestToken(chain().url, { symbol: "RUN" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    const receiver = await startWebhookReceiver();
    const { PATCH: patchDomain } = await import("@/app/api/user/domains/[id]/route");
    await call(patchDomain, {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: String(merchant.domainId) },
      body: { webhookUrl: receiver.url },
    });
    await fundGasTank(chain().url);
    const runner = startEmbeddedRunner(await getDatabase());
    try {
      const created = await call(create, {
        method: "POST",
        headers: { "x-api-key": merchant.apiKey },
        body: { tokenId: merchant.tokenId, amount: "4", merchantWallet: MERCHANT_WALLET },
      });
      const { sessionId, depositAddress } = created.body.data;
      const hash = await payTo(chain().url, token, depositAddress, parseUnits("4", 18));
      await expect
        .poll(async () => (await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data.status, {
          timeout: 15_000,
          interval: 200,
        })
        .toBe("completed");
      expect((await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data.txHash).toBe(hash);
      const [hook] = await receiver.waitFor(1, 5_000);
      expect(JSON.parse(hook!.body)).toMatchObject({ type: "payment.completed", data: { sessionId, status: "completed" } });
      await expect
        .poll(() => tokenBalance(chain().url, token, MERCHANT_WALLET), { timeout: 20_000, interval: 250 })
        .toBe(parseUnits("4", 18));
      expect(runner.state).toMatchObject({ mode: "embedded", leader: true });
      expect(runner.state.lastScanAt).not.toBeNull();
    } finally {
      await runner.stop();
      await receiver.close();
    }
  });

  it("lets only one process per database lead (PostgreSQL advisory lock)", async () => {
    if (!process.env.TEST_DATABASE_URL) {
      const handle = await getDatabase();
      expect(await handle.holdsLeadership(42)).toBe(true); // PGlite: one process, always the leader
      return;
    }
    const shared = await createTestDatabase();
    const a = openPostgres(shared.url!, { max: 2 });
    const b = openPostgres(shared.url!, { max: 2 });
    try {
      expect(await a.holdsLeadership(42)).toBe(true);
      expect(await b.holdsLeadership(42)).toBe(false);
      expect(await a.holdsLeadership(42)).toBe(true);
      await a.close(); // the leader goes away: the lock is released with its connection
      await expect.poll(() => b.holdsLeadership(42), { timeout: 5000 }).toBe(true);
    } finally {
      await b.close();
      await shared.close();
    }
  });
});
