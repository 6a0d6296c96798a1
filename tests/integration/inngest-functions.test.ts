import { InngestTestEngine, mockCtx } from "@inngest/test";
import { eq } from "drizzle-orm";
import { type Address, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as status } from "@/app/api/v1/payment/[sessionId]/status/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { jobDb } from "@/inngest/db";
import { FORWARD_ATTEMPTS, forwardDeposit } from "@/inngest/functions/forward-deposit";
import { expireSessions } from "@/inngest/functions/maintenance";
import { SCAN_ROUNDS, scanChains } from "@/inngest/functions/scan-chains";
import { type Forward, forwards, paymentSessions } from "@/lib/db/schema";
import { MAX_FORWARD_ATTEMPTS } from "@/lib/engine/forwarding/forward-schedule";
import { SCHEDULE } from "@/lib/ops/jobs/schedule";
import { dueForwardsStep, type ForwardStepResult, forwardStep } from "@/lib/ops/jobs/steps";
import { setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { type RpcProxy, startRpcProxy } from "../helpers/rpc-proxy";

// The Inngest client reads INNGEST_DEV when it is created, at import: no Inngest Cloud here.
vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0xBcd4042DE499D14e55001CcbB24a551F3b954096" as Address;

/** step.sleep never settles under @inngest/test unless mocked, by step id; `ms` makes the mock take that long. */
const sleeps = (prefix: string, count: number, ms = 0) =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    handler: () => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : undefined),
  }));

describe("Inngest driver (same job steps, run by @inngest/test)", () => {
  it("scan-chains records the payment and hands the deposit to forward-deposit; forward-deposit sweeps it", async () => {
    useConfig({
      BSC_RPC_URL: chain().url,
      NEXTAUTH_SECRET: "integration-test-secret-0123456789",
      CONFIRMATIONS: "1",
      JOBS: "inngest",
      INNGEST_DEV: "1",
    });
    const token = await deployTestToken(chain().url, { symbol: "ING" });
    const merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
    await fundGasTank(chain().url);
    const created = await call(create, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { tokenId: merchant.tokenId, amount: "6", merchantWallet: MERCHANT_WALLET },
    });
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
    await db()
      .update(paymentSessions)
      .set({ status: "pending", expiresAt: new Date(Date.now() - 1000) })
      .where(eq(paymentSessions.id, session!.id));
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
    expect(on.body.function_count).toBe(10); // scan, forward, 3 maintenance, send-awaiting-refunds, dispatch-webhooks, deliver-webhook, reconcile-daily, expire-approvals
  });
});

/**
 * One failing forward, driven once by the embedded runner's loop and once by forward-deposit under
 * @inngest/test, on a fake clock (only Date is faked): each attempt meets what SCRIPT says, and
 * both drivers must attempt at the same moments and hold it after the same real failures.
 */
describe("a failing forward's retries, the same under both drivers", () => {
  // R: the provider refuses a method for good (counted); T: it does not answer at all (not counted).
  const SCRIPT = ["R", "T", "R", "T", "R", "R", "R", "R", "T", "R", "R"] as const;
  // Seconds after the first attempt, per decideFailure: after R the backoff of the new count
  // (5, 10, 20 … s); after T at most a minute, the count unchanged. The 8th R holds it.
  const EXPECTED: [number, ForwardStepResult["outcome"]][] = [
    [0, "retry"],
    [5, "retry"],
    [15, "retry"],
    [25, "retry"],
    [45, "retry"],
    [65, "retry"],
    [105, "retry"],
    [185, "retry"],
    [345, "retry"],
    [405, "retry"],
    [725, "held"],
  ];
  let proxy: RpcProxy;
  let forward: Forward;
  let start: number;
  const meet = (what: (typeof SCRIPT)[number] | undefined) => {
    proxy.options.down = what === "T";
  };
  const secondsSinceStart = () => Math.round((Date.now() - start) / 1000);

  beforeAll(async () => {
    proxy = await startRpcProxy(chain().url);
  });
  afterAll(async () => proxy.close());

  beforeEach(async () => {
    proxy.options = { refuseMethod: "eth_gasPrice" }; // every attempt that reaches it fails there
    useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", JOBS: "inngest", INNGEST_DEV: "1" });
    await jobDb(); // started while the node answers
    const token = await deployTestToken(chain().url, { symbol: "RTY" });
    const from = privateKeyToAccount(generatePrivateKey()).address;
    await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, token, from, parseUnits("3", 18)) });
    vi.useFakeTimers({ toFake: ["Date"] });
    start = Date.now();
    const [inserted] = await db()
      .insert(forwards)
      .values({
        network: "bsc",
        fromAddress: from,
        toAddress: MERCHANT_WALLET,
        tokenContract: token,
        amount: parseUnits("3", 18),
        classicOnly: true,
        nextAttemptAt: new Date(start),
      })
      .returning();
    forward = inserted!; // insert … returning answers the row it inserted
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const reload = async () => (await db().select().from(forwards).where(eq(forwards.id, forward.id)))[0]!; // made in beforeEach, never deleted

  it("the embedded runner: a tick a second, due forwards only", async () => {
    const { everyMs, pageSize } = SCHEDULE.forward.embedded; // the work loop's tick and page
    const seen: [number, string][] = [];
    for (let tick = 0, attempt = 0; tick <= 1000 && attempt < SCRIPT.length; tick++) {
      vi.setSystemTime(start + tick * everyMs());
      for (const due of await dueForwardsStep(db(), pageSize)) {
        if (due.forwardId !== forward.id) continue;
        meet(SCRIPT[attempt++]);
        seen.push([secondsSinceStart(), (await forwardStep(db(), due.forwardId)).outcome]);
      }
    }
    expect(seen).toEqual(EXPECTED);
    expect(await reload()).toMatchObject({ status: "held", attempts: MAX_FORWARD_ATTEMPTS });
  });

  it("forward-deposit: sleeps until the forward is due, attempts no sooner", async () => {
    const seen: [number, string][] = [];
    const sleepsUntil = new Map<string, string>();
    let attempt = 0;
    const run = new InngestTestEngine({
      function: forwardDeposit,
      events: [{ name: "bsc-pay/forward.requested", data: { forwardId: forward.id, fromAddress: forward.fromAddress } }],
      transformCtx: (raw) => {
        const ctx = mockCtx(raw);
        const { run: runStep, sleepUntil } = ctx.step;
        // Called again on every replay; the body runs once per attempt (memoised afterwards).
        ctx.step.run = ((id: string, body: () => Promise<ForwardStepResult>) =>
          runStep(id, async () => {
            meet(SCRIPT[attempt++]);
            const result = await body();
            seen.push([secondsSinceStart(), result.outcome]);
            return result;
          })) as typeof runStep;
        ctx.step.sleepUntil = ((id: string, until: string) => {
          sleepsUntil.set(id, until);
          return sleepUntil(id, until);
        }) as typeof sleepUntil;
        return ctx;
      },
      // A sleep passes on the fake clock: it ends when the function asked it to.
      steps: Array.from({ length: FORWARD_ATTEMPTS }, (_, i) => ({
        id: `wait-${i}`,
        handler: () => {
          const until = sleepsUntil.get(`wait-${i}`);
          if (until) vi.setSystemTime(new Date(until));
        },
      })),
    });
    const { result } = await run.execute();
    expect(seen).toEqual(EXPECTED);
    expect(result).toEqual({ outcome: "held" });
    expect(await reload()).toMatchObject({ status: "held", attempts: MAX_FORWARD_ATTEMPTS });
  });
});
