import { InngestTestEngine } from "@inngest/test";
import { parseUnits, type Address } from "viem";
import { describe, expect, it, vi } from "vitest";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { forwardDeposit, FORWARD_ATTEMPTS } from "@/inngest/functions/forward-deposit";
import { expireSessions } from "@/inngest/functions/maintenance";
import { scanChains, SCAN_ROUNDS } from "@/inngest/functions/scan-chains";
import { forwards, paymentSessions } from "@/lib/db/schema";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";

// The Inngest client reads INNGEST_DEV when it is created, at import: no Inngest Cloud here.
vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0xBcd4042DE499D14e55001CcbB24a551F3b954096" as Address;

/** step.sleep never settles under @inngest/test unless mocked, by step id; `ms` makes the mock take that long. */
const sleeps = (prefix: string, count: number, ms = 0) =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}-${i}`, handler: () => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : undefined) }));

describe("Inngest driver (same job steps, run by @inngest/test)", () => {
  it("scan-chains records the payment and hands the deposit to forward-deposit; forward-deposit sweeps it", async () => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1", JOBS: "inngest", INNGEST_DEV: "1" });
    const token = await deployTestToken(chain().url, { symbol: "ING" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    await fundGasTank(chain().url);
    const created = await call(create, { method: "POST", headers: { "x-api-key": merchant.apiKey }, body: { tokenId: merchant.tokenId, amount: "6", merchantWallet: MERCHANT_WALLET } });
    const { sessionId, depositAddress } = created.body.data;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, depositAddress, parseUnits("6", 18)) });
    await chain().client.mine({ blocks: 1 });

    const sent: unknown[] = [];
    const scan = new InngestTestEngine({
      function: scanChains,
      steps: [
        ...sleeps("pause", SCAN_ROUNDS),
        ...Array.from({ length: SCAN_ROUNDS }, (_, i) => ({ id: `forward-${i}`, handler: () => void sent.push(i) })),
      ],
    });
    const { result } = await scan.execute();
    expect(result).toEqual({ transfers: 1 });
    expect(sent).toEqual([0]); // the deposit was handed over in the first round
    expect((await call(status, { headers: { "x-api-key": merchant.apiKey }, params: { sessionId } })).body.data.status).toBe("completed");

    const [forward] = await db().select().from(forwards);
    const run = new InngestTestEngine({
      function: forwardDeposit,
      events: [{ name: "bsc-pay/forward.requested", data: { forwardId: forward!.id, fromAddress: forward!.fromAddress } }],
      // A batched forward's batch is checked once a second (per batch, not per forward): pauses as real as that.
      steps: sleeps("wait", FORWARD_ATTEMPTS, 1_100),
    });
    const forwarded = await run.execute();
    expect(forwarded.result).toEqual({ outcome: "completed" });
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(parseUnits("6", 18));
    expect(await tokenBalance(chain().url, token, depositAddress)).toBe(0n);

    // A duplicate event changes nothing: the forward is already completed.
    const again = await new InngestTestEngine({
      function: forwardDeposit,
      events: [{ name: "bsc-pay/forward.requested", data: { forwardId: forward!.id, fromAddress: forward!.fromAddress } }],
      steps: sleeps("wait", FORWARD_ATTEMPTS),
    }).execute();
    expect(again.result).toEqual({ outcome: "completed" });
    expect(await tokenBalance(chain().url, token, MERCHANT_WALLET)).toBe(parseUnits("6", 18));
  });

  it("expire-sessions expires due sessions", async () => {
    const [session] = await db().select().from(paymentSessions);
    const { eq } = await import("drizzle-orm");
    await db().update(paymentSessions).set({ status: "pending", expiresAt: new Date(Date.now() - 1000) }).where(eq(paymentSessions.id, session!.id));
    const { result } = await new InngestTestEngine({ function: expireSessions }).execute();
    expect(result).toEqual({ expired: 1 });
  });
});

describe("/api/inngest", () => {
  it("answers 404 with a message unless JOBS=inngest, and serves the functions when it is", async () => {
    const { GET } = await import("@/app/api/inngest/route");
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789" });
    const off = await call(GET as never, { path: "/api/inngest" });
    expect(off.status).toBe(404);
    expect(off.body.error.message).toContain("JOBS=inngest");
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", JOBS: "inngest", INNGEST_DEV: "1" });
    const on = await call(GET as never, { path: "/api/inngest" });
    expect(on.status).toBe(200);
    expect(on.body.function_count).toBe(8); // scan, forward, 3 maintenance, dispatch-webhooks, deliver-webhook, reconcile-daily
  });
});
