import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { type Address, parseUnits } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as getDomain, PATCH as patchDomain } from "@/app/api/user/domains/[id]/route";
import { GET as listDeliveries } from "@/app/api/user/domains/[id]/webhook-deliveries/route";
import { POST as rotate } from "@/app/api/user/domains/[id]/webhook-secret/route";
import { POST as sendTest } from "@/app/api/user/domains/[id]/webhook-test/route";
import { POST as addDomainRoute } from "@/app/api/user/domains/route";
import { POST as redeliver } from "@/app/api/user/webhook-deliveries/[id]/redeliver/route";
import { POST as cancel } from "@/app/api/v1/payment/[sessionId]/cancel/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { POST as sendWithdrawal } from "@/app/api/v1/withdrawal/send/route";
import { DISPATCH_ROUNDS, deliverWebhook, dispatchWebhooks } from "@/inngest/functions/webhooks";
import { paymentSessions, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { deliverDueNotifications } from "@/lib/domain/notifications/delivery";
import { MAX_PENDING_PINGS } from "@/lib/domain/webhooks/deliveries";
import { attemptDelivery, claimDueDeliveries, IN_FLIGHT_PER_USER } from "@/lib/domain/webhooks/dispatch";
import { MAX_ATTEMPTS } from "@/lib/domain/webhooks/retry-schedule";
import { expireDueStep, tendLedgerStep } from "@/lib/ops/jobs/steps";
import { dashboardRefusalWords } from "@/lib/web/dashboard/shared/refusal-words";
import { REDELIVERIES_PER_MINUTE, resetRateLimits } from "@/lib/web/http/rate-limit";
import { type Merchant, setUpMerchant, signUp } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, payTo, runEngine } from "../helpers/engine";
import { call } from "../helpers/http";
import { addMember } from "../helpers/insiders";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const RECIPIENT = "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097" as Address;
const env = (extra: Record<string, string> = {}) =>
  useConfig({
    BSC_RPC_URL: chain().url,
    NEXTAUTH_SECRET: "integration-test-secret-0123456789",
    CONFIRMATIONS: "1",
    WEBHOOK_ALLOW_PRIVATE: "true",
    ...extra,
  });

let merchant: Merchant;
let usd: Address;
let receiver: WebhookReceiver;
let secret: string;

const typeOf = (w: ReceivedWebhook) => (JSON.parse(w.body) as { type: string }).type;
const dataOf = (w: ReceivedWebhook) => (JSON.parse(w.body) as { data: Record<string, any> }).data;
const headersOf = (w: ReceivedWebhook) => ({
  "webhook-id": String(w.headers["webhook-id"]),
  "webhook-timestamp": String(w.headers["webhook-timestamp"]),
  "webhook-signature": String(w.headers["webhook-signature"]),
});
const deliver = (timeoutMs?: number) => deliverDueNotifications(db(), { timeoutMs });
const settle = async () => {
  await chain().client.mine({ blocks: 1 });
  await runEngine(db(), chain().url);
};
const deliveriesOf = async (domainId = merchant.domainId) => {
  const [endpoint] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.domainId, domainId));
  return db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint!.id)).orderBy(webhookDeliveries.id);
};
/** Makes every retry due now: the schedule itself is checked once, in real time, below. */
const dueNow = () =>
  db()
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(0) })
    .where(eq(webhookDeliveries.status, "pending"));

async function newSession(amount: string) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: merchant.tokenId, amount, merchantWallet: MERCHANT_WALLET, metadata: { orderId: "A-17" } },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data as { sessionId: string; depositAddress: Address };
}
async function pay(to: Address, amount: string) {
  await chain().client.waitForTransactionReceipt({ hash: await payTo(chain().url, usd, to, parseUnits(amount, 18)) });
}

/** The merchant (USDT, a funded gas tank) whose domain sends its webhooks to the receiver, signed with `secret`. */
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  env();
  usd = await deployTestToken(chain().url, { symbol: "USDT", decimals: 18 });
  merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
  await fundGasTank(chain().url);
  const saved = await call(patchDomain, {
    method: "PATCH",
    headers: merchant.auth,
    params: { id: String(merchant.domainId) },
    body: { webhookUrl: receiver.url },
  });
  secret = saved.body.data.webhookSecret;
});
afterAll(async () => {
  await receiver.close();
});
/** Each test counts the webhooks it makes from an empty receiver that answers 200; tests that want otherwise say so. */
beforeEach(() => {
  receiver.received.length = 0;
  receiver.behave(() => 200);
});

describe("webhook events, signed and delivered", () => {
  it("gives a domain with a webhookUrl a whsec_ secret, shown once when it is made, then only its hint while the URL is set", async () => {
    const shop = await setUpMerchant({ contractAddress: usd, network: "bsc", domain: "https://secret-shop.example.com" });
    const before = await call(getDomain, { headers: shop.auth, params: { id: String(shop.domainId) } });
    expect(before.body.data).toMatchObject({ webhookUrl: null, webhookSecretHint: null });

    const saved = await call(patchDomain, {
      method: "PATCH",
      headers: shop.auth,
      params: { id: String(shop.domainId) },
      body: { webhookUrl: receiver.url },
    });
    expect(saved.status).toBe(200);
    const shopSecret = saved.body.data.webhookSecret;
    expect(shopSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(shopSecret.slice(6), "base64")).toHaveLength(24);
    const read = await call(getDomain, { headers: shop.auth, params: { id: String(shop.domainId) } });
    expect(read.body.data.webhookSecretHint).toBe(`whsec_…${shopSecret.slice(-4)}`);
    expect(JSON.stringify(read.body)).not.toContain(shopSecret.slice(6));
    const stranger = await signUp();
    expect((await call(getDomain, { headers: stranger.auth, params: { id: String(shop.domainId) } })).status).toBe(404);
  });

  it("sends payment.partial, payment.completed and payment.late, each once, with a valid signature and the session's data", async () => {
    const session = await newSession("10");
    await pay(session.depositAddress, "4");
    await settle();
    await pay(session.depositAddress, "6");
    await settle();
    await pay(session.depositAddress, "1"); // after completion: late
    await settle();
    expect(await deliver()).toMatchObject({ delivered: 1 }); // one per session at a time: in order
    await deliver();
    await deliver();
    const got = await receiver.waitFor(3);
    expect(got.map(typeOf)).toEqual(["payment.partial", "payment.completed", "payment.late"]);
    const verifier = new Webhook(secret);
    for (const w of got) {
      expect(verifier.verify(w.body, headersOf(w))).toMatchObject({ type: typeOf(w) });
      expect(() => verifier.verify(w.body.replace('"A-17"', '"A-18"'), headersOf(w))).toThrow();
      expect(String(w.headers["webhook-signature"])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
    expect(new Set(got.map((w) => w.headers["webhook-id"])).size).toBe(3);
    expect(dataOf(got[0]!)).toMatchObject({
      sessionId: session.sessionId,
      status: "pending",
      receivedAmount: "4",
      amount: "10",
      network: "bsc",
      domainId: merchant.domainId,
      metadata: { orderId: "A-17" },
    });
    expect(dataOf(got[0]!).token).toBe("USDT");
    expect(dataOf(got[1]!)).toMatchObject({ status: "completed", receivedAmount: "10" });
    // Paid again before the deadline: it counts (overpaid) and is reported as arriving after completion.
    expect(dataOf(got[2]!)).toMatchObject({ status: "completed", receivedAmount: "11", overpaid: true });
    expect(await deliver()).toEqual({ claimed: 0, delivered: 0 });
    expect(receiver.received).toHaveLength(3);
  });

  it("sends payment.expired, payment.late for a deposit after it, and payment.cancelled; nothing for a change that was refused", async () => {
    const expiring = await newSession("5");
    await db()
      .update(paymentSessions)
      // Before both clocks: the chain's (the deposit's block time decides lateness) and this one's (expiry).
      .set({ expiresAt: new Date(Math.min(Date.now(), Number((await chain().client.getBlock()).timestamp) * 1000) - 1000) })
      .where(eq(paymentSessions.id, expiring.sessionId));
    await expireDueStep(db());
    await pay(expiring.depositAddress, "2");
    await settle();
    const cancelled = await newSession("5");
    expect(
      (await call(cancel, { method: "POST", headers: { "x-api-key": merchant.apiKey }, params: { sessionId: cancelled.sessionId } }))
        .status,
    ).toBe(200);
    const before = (await deliveriesOf()).length;
    // Cancelling again changes nothing, so it makes no event.
    const again = await call(cancel, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      params: { sessionId: cancelled.sessionId },
    });
    expect(again.body.data.message).toContain("already cancelled");
    expect(await deliveriesOf()).toHaveLength(before);

    await deliver();
    await deliver();
    const got = await receiver.waitFor(3);
    expect(got.map(typeOf).sort()).toEqual(["payment.cancelled", "payment.expired", "payment.late"]);
    // One session's events arrive in the order they happened.
    expect(got.map(typeOf).filter((t) => t !== "payment.cancelled")).toEqual(["payment.expired", "payment.late"]);
    expect(dataOf(got.find((w) => typeOf(w) === "payment.expired")!)).toMatchObject({ sessionId: expiring.sessionId, status: "expired" });
    expect(dataOf(got.find((w) => typeOf(w) === "payment.late")!)).toMatchObject({
      sessionId: expiring.sessionId,
      status: "expired",
      late: true,
      lateAmount: "2",
    });
    expect(dataOf(got.find((w) => typeOf(w) === "payment.cancelled")!)).toMatchObject({
      sessionId: cancelled.sessionId,
      status: "cancelled",
    });
    for (const w of got) expect(() => new Webhook(secret).verify(w.body, headersOf(w))).not.toThrow();
  });

  it("sends withdrawal.completed and withdrawal.failed with the withdrawal record", async () => {
    await pay(merchant.withdrawalAddress as Address, "20");
    const sent = await call(sendWithdrawal, {
      method: "POST",
      headers: { "x-api-key": merchant.apiKey },
      body: { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: RECIPIENT, amount: "3" },
    });
    expect(sent.status).toBe(201);
    await chain().client.mine({ blocks: 2 });
    await tendLedgerStep(db());

    // Gas for the next send is already there, so the one raw transaction refused is the send itself.
    await chain().client.setBalance({ address: merchant.withdrawalAddress as Address, value: parseUnits("1", 18) });
    const proxy = await startRpcProxy(chain().url, { refuseRawTransactions: 1 });
    env({ BSC_RPC_URL: proxy.url });
    try {
      // The network refuses the send: its nonce is filled by a 0-value self-transfer and it fails.
      const refused = await call(sendWithdrawal, {
        method: "POST",
        headers: { "x-api-key": merchant.apiKey },
        body: { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: RECIPIENT, amount: "2" },
      });
      expect(refused.body.error?.code, JSON.stringify(refused.body)).toBe("BLOCKCHAIN_ERROR");
    } finally {
      env();
      await proxy.close();
    }
    await deliver();
    const got = (await receiver.waitFor(2)).sort((a, b) => typeOf(a).localeCompare(typeOf(b)));
    expect(got.map(typeOf)).toEqual(["withdrawal.completed", "withdrawal.failed"]);
    expect(dataOf(got[0]!)).toMatchObject({
      withdrawalId: sent.body.data.withdrawalId,
      status: "completed",
      amount: "3",
      toAddress: RECIPIENT,
      network: "bsc",
    });
    expect(dataOf(got[1]!)).toMatchObject({ status: "failed", amount: "2" });
    for (const w of got) expect(() => new Webhook(secret).verify(w.body, headersOf(w))).not.toThrow();
  });

  it("queues a ping on webhook-test (201), delivered with a valid signature", async () => {
    const res = await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ eventType: "ping", status: "pending", attempts: 0 });
    await deliver();
    const [ping] = await receiver.waitFor(1);
    expect(typeOf(ping!)).toBe("ping");
    expect(ping!.headers["webhook-id"]).toBe(res.body.data.eventId);
    expect(new Webhook(secret).verify(ping!.body, headersOf(ping!))).toMatchObject({ type: "ping", data: { domainId: merchant.domainId } });
  });
});

describe("retries", () => {
  it("retries a 500 with the same webhook-id 5 s later, and records what happened", async () => {
    receiver.behave((n) => (n === 0 ? 500 : 200));
    const queued = (await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } })).body.data;
    expect(await deliver()).toEqual({ claimed: 1, delivered: 0 });
    const [afterFirst] = (await deliveriesOf()).filter((d) => d.eventId === queued.eventId);
    expect(afterFirst).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    expect(afterFirst!.nextAttemptAt.getTime() - afterFirst!.lastAttemptAt!.getTime()).toBe(5_000);

    while (receiver.received.length < 2) {
      await deliver();
      await new Promise((r) => setTimeout(r, 100));
    }
    const [first, second] = receiver.received;
    expect(first!.headers["webhook-id"]).toBe(second!.headers["webhook-id"]);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(4_900);
    expect(second!.at - first!.at).toBeLessThan(7_000);
    expect(new Webhook(secret).verify(second!.body, headersOf(second!))).toBeTruthy();
    const [done] = (await deliveriesOf()).filter((d) => d.eventId === queued.eventId);
    expect(done).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
  });

  it("retries a receiver that does not answer in time", async () => {
    receiver.behave((n) => (n === 0 ? "hang" : 204));
    const queued = (await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } })).body.data;
    await deliver(300);
    const [timedOut] = (await deliveriesOf()).filter((d) => d.eventId === queued.eventId);
    expect(timedOut).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    expect(timedOut!.lastError).toMatch(/no answer within/);
    await dueNow();
    // The retry with the usual timeout: 300 ms is the first attempt's budget only (on the embedded
    // PGlite under load, a request may not even leave the process within it).
    await deliver();
    expect(receiver.received.map((w) => w.headers["webhook-id"])).toEqual([queued.eventId, queued.eventId]);
    expect((await deliveriesOf()).find((d) => d.eventId === queued.eventId)).toMatchObject({ status: "delivered", lastStatusCode: 204 });
  });

  it("does not follow redirects: a 3xx is a failed attempt", async () => {
    receiver.behave(() => 302);
    const queued = (await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } })).body.data;
    await deliver();
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf()).find((d) => d.eventId === queued.eventId)).toMatchObject({ status: "pending", lastStatusCode: 302 });
    receiver.behave(() => 200);
    await dueNow();
    await deliver();
  });

  it("keeps a session's events in order while its first one is being retried", async () => {
    receiver.behave((n) => (n === 0 ? 503 : 200));
    const session = await newSession("10");
    await pay(session.depositAddress, "4");
    await settle();
    await deliver(); // payment.partial → 503
    await pay(session.depositAddress, "6");
    await settle();
    const ping = (await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } })).body.data;
    await deliver(); // the ping goes; payment.completed waits behind the partial's retry
    expect(receiver.received.map(typeOf)).toEqual(["payment.partial", "ping"]);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(ping.eventId);
    await dueNow();
    await deliver();
    await deliver();
    expect(receiver.received.map(typeOf)).toEqual(["payment.partial", "ping", "payment.partial", "payment.completed"]);
  });

  it("lets a session's later events go ahead once its earlier one has failed three times", async () => {
    receiver.behave((_, w) => (typeOf(w) === "payment.partial" ? 400 : 200)); // a receiver that refuses a type it does not handle
    const session = await newSession("10");
    await pay(session.depositAddress, "4");
    await settle();
    await pay(session.depositAddress, "6");
    await settle();
    await deliver(); // partial: 400 (1), completed waits
    await dueNow();
    await deliver(); // partial: 400 (2), completed still waits
    expect(receiver.received.map(typeOf)).toEqual(["payment.partial", "payment.partial"]);
    await dueNow();
    await deliver(); // partial: 400 (3)
    await deliver(); // completed no longer waits
    expect(receiver.received.map(typeOf)).toEqual(["payment.partial", "payment.partial", "payment.partial", "payment.completed"]);
    receiver.behave(() => 200);
    await dueNow();
    await deliver();
  });

  it("gives up after the last scheduled attempt: failed, counted in /api/health, and redeliverable", async () => {
    receiver.behave(() => 500);
    const queued = (await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } })).body.data;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await dueNow();
      await deliver();
    }
    const failed = (await deliveriesOf()).find((d) => d.eventId === queued.eventId)!;
    expect(failed).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, lastStatusCode: 500 });
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    await dueNow();
    expect(await deliver()).toEqual({ claimed: 0, delivered: 0 });
    expect((await (await health()).json()).webhooks).toEqual({ pending: 0, failed: 1 });

    const listed = await call(listDeliveries, {
      headers: merchant.auth,
      params: { id: String(merchant.domainId) },
      path: "/?status=failed",
    });
    expect(listed.body.data.items).toHaveLength(1);
    expect(listed.body.data.items[0]).toMatchObject({
      deliveryId: failed.id,
      eventType: "ping",
      status: "failed",
      attempts: MAX_ATTEMPTS,
      lastStatusCode: 500,
      nextAttemptAt: null,
    });

    const stranger = await signUp();
    expect((await call(redeliver, { method: "POST", headers: stranger.auth, params: { id: String(failed.id) } })).status).toBe(404);
    receiver.behave(() => 200);
    const again = await call(redeliver, { method: "POST", headers: merchant.auth, params: { id: String(failed.id) } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: "pending", attempts: 0, eventId: queued.eventId });
    await deliver();
    expect(receiver.received.at(-1)!.headers["webhook-id"]).toBe(queued.eventId);
    expect((await (await health()).json()).webhooks).toEqual({ pending: 0, failed: 0 });
  });
});

describe("test events", () => {
  it("lets at most five test events wait for an endpoint (a receiver that never answers cannot hog delivery), then 429", async () => {
    const other = await setUpMerchant({ contractAddress: usd, network: "bsc", domain: "https://hanging-shop.example.com" });
    const params = { id: String(other.domainId) };
    await call(patchDomain, { method: "PATCH", headers: other.auth, params, body: { webhookUrl: receiver.url } });
    for (let i = 0; i < MAX_PENDING_PINGS; i++)
      expect((await call(sendTest, { method: "POST", headers: other.auth, params })).status).toBe(201);
    const refused = await call(sendTest, { method: "POST", headers: other.auth, params });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("10");
    expect(await deliveriesOf(other.domainId)).toHaveLength(MAX_PENDING_PINGS);
    receiver.behave(() => 200);
    await deliver();
    expect((await call(sendTest, { method: "POST", headers: other.auth, params })).status).toBe(201); // delivered ones no longer count
    await deliver();
  });
});

describe("claims", () => {
  it("sends nothing for a claim whose lease ran out and was taken by another worker, and refuses a redelivery under a live claim", async () => {
    const queued = (await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } })).body.data;
    const [stale] = await claimDueDeliveries(db(), 10, { leaseMs: 50 });
    expect(stale!.deliveryId).toBe(queued.deliveryId);
    await new Promise((r) => setTimeout(r, 80));
    const [fresh] = await claimDueDeliveries(db(), 10);
    expect(fresh!.deliveryId).toBe(queued.deliveryId);

    const refused = await call(redeliver, { method: "POST", headers: merchant.auth, params: { id: String(queued.deliveryId) } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("being sent right now");

    expect(await attemptDelivery(db(), stale!)).toBe("skipped"); // the late worker stands down
    expect(receiver.received).toHaveLength(0);
    expect(await attemptDelivery(db(), fresh!)).toBe("delivered");
    expect(await attemptDelivery(db(), fresh!)).toBe("skipped"); // once recorded, the claim is spent
    expect(receiver.received.map((w) => w.headers["webhook-id"])).toEqual([queued.eventId]);
  });
});

describe("shared delivery slots", () => {
  it("gives one merchant's endpoints together at most 8 deliveries in flight: four hanging endpoints cannot take every slot", async () => {
    await dueNow();
    await claimDueDeliveries(db(), 1000); // whatever earlier tests left pending is leased out of the way
    const greedy = await setUpMerchant({ contractAddress: usd, network: "bsc", domain: "https://greedy-1.example.com" });
    const domains = [greedy.domainId];
    for (let i = 2; i <= 4; i++) {
      domains.push(
        (await call(addDomainRoute, { method: "POST", headers: greedy.auth, body: { domain: `https://greedy-${i}.example.com` } })).body
          .data.domainId,
      );
    }
    const polite = await setUpMerchant({ contractAddress: usd, network: "bsc", domain: "https://polite.example.com" });
    for (const [owner, ids, pings] of [
      [greedy, domains, MAX_PENDING_PINGS],
      [polite, [polite.domainId], 3],
    ] as const) {
      for (const id of ids) {
        const params = { id: String(id) };
        await call(patchDomain, { method: "PATCH", headers: owner.auth, params, body: { webhookUrl: receiver.url } });
        for (let i = 0; i < pings; i++) expect((await call(sendTest, { method: "POST", headers: owner.auth, params })).status).toBe(201);
      }
    }
    const ownerOf = async (deliveryId: number) => {
      const [row] = await db()
        .select({ userId: webhookEndpoints.userId })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(eq(webhookDeliveries.id, deliveryId));
      return row!.userId;
    };
    const claimed = await claimDueDeliveries(db(), 100);
    const owners = await Promise.all(claimed.map((c) => ownerOf(c.deliveryId)));
    expect(owners.filter((o) => o === greedy.userId)).toHaveLength(IN_FLIGHT_PER_USER); // 20 waiting, 8 let through
    expect(owners.filter((o) => o === polite.userId)).toHaveLength(3);
    // While those 8 are in flight nothing more of the greedy merchant is claimed.
    expect(await claimDueDeliveries(db(), 100)).toEqual([]);
    await db().update(webhookDeliveries).set({ status: "delivered", lockedUntil: null }).where(eq(webhookDeliveries.status, "pending"));
  });

  it("rate-limits redeliveries per user: 30 a minute, then 429 with Retry-After", async () => {
    await resetRateLimits();
    const queued = (await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } })).body.data;
    await db().update(webhookDeliveries).set({ status: "failed", lockedUntil: null }).where(eq(webhookDeliveries.id, queued.deliveryId));
    const params = { id: String(queued.deliveryId) };
    for (let i = 0; i < REDELIVERIES_PER_MINUTE; i++)
      expect((await call(redeliver, { method: "POST", headers: merchant.auth, params })).status).toBe(200);
    const refused = await call(redeliver, { method: "POST", headers: merchant.auth, params });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await resetRateLimits();
    await db().update(webhookDeliveries).set({ status: "delivered", lockedUntil: null }).where(eq(webhookDeliveries.status, "pending"));
  });
});

describe("secrets, targets and the merchant's tools", () => {
  it("signs with both secrets during the 24 h overlap after a rotation, then with the new one only", async () => {
    // Rotating shows the new secret: a developer with two-factor on and a current code.
    const developer = await addMember(db(), merchant.userId, "developer");
    const rotated = await call(rotate, {
      method: "POST",
      headers: developer.headers,
      params: { id: String(merchant.domainId) },
      body: { code: developer.code() },
    });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const fresh = rotated.body.data.webhookSecret as string;
    expect(fresh).not.toBe(secret);
    expect(Date.parse(rotated.body.data.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } });
    await deliver();
    const [both] = await receiver.waitFor(1);
    expect(String(both!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(() => new Webhook(fresh).verify(both!.body, headersOf(both!))).not.toThrow();
    expect(() => new Webhook(secret).verify(both!.body, headersOf(both!))).not.toThrow();

    await db()
      .update(webhookEndpoints)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1) })
      .where(eq(webhookEndpoints.domainId, merchant.domainId));
    await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } });
    await deliver();
    const [, one] = await receiver.waitFor(2);
    expect(String(one!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(() => new Webhook(fresh).verify(one!.body, headersOf(one!))).not.toThrow();
    expect(() => new Webhook(secret).verify(one!.body, headersOf(one!))).toThrow();
    secret = fresh;
  });

  it("refuses private IP literals when the URL is saved, with nothing changed, unless private delivery is allowed", async () => {
    env({ WEBHOOK_ALLOW_PRIVATE: "false" });
    try {
      for (const url of [
        "https://10.1.2.3/hook",
        "https://127.0.0.1:8443/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://100.64.0.1/hook",
        "https://[::1]/hook",
        "https://[::ffff:192.168.1.1]/hook",
        "https://[fd00::1]/hook",
        "https://224.0.0.1/hook",
        "http://shop.example.com/hook", // https only when private delivery is off
      ]) {
        const res = await call(patchDomain, {
          method: "PATCH",
          headers: merchant.auth,
          params: { id: String(merchant.domainId) },
          body: { webhookUrl: url },
        });
        expect(res.status, url).toBe(400);
        expect(res.body.error.code).toBe("VALIDATION_ERROR");
        expect(res.body.error.message).toContain("webhookUrl");
      }
      const unchanged = await call(getDomain, { headers: merchant.auth, params: { id: String(merchant.domainId) } });
      expect(unchanged.body.data).toMatchObject({ webhookUrl: receiver.url, webhookSecretHint: `whsec_…${secret.slice(-4)}` });
      const publicOne = await call(patchDomain, {
        method: "PATCH",
        headers: merchant.auth,
        params: { id: String(merchant.domainId) },
        body: { webhookUrl: "https://93.184.215.14/hook" },
      });
      expect(publicOne.status).toBe(200);
      // The secret stays with the domain (its hint), and is not shown again: this request did not make it.
      expect(publicOne.body.data).toMatchObject({ webhookSecretHint: `whsec_…${secret.slice(-4)}` });
      expect(publicOne.body.data.webhookSecret).toBeUndefined();
    } finally {
      env();
    }
  });

  it("refuses at delivery a host name that resolves to 127.0.0.1 when private delivery is off, without connecting", async () => {
    const other = await setUpMerchant({ contractAddress: usd, network: "bsc", domain: "https://other-shop.example.com" });
    env({ WEBHOOK_ALLOW_PRIVATE: "false" });
    const connectionsBefore = receiver.connections();
    try {
      const saved = await call(patchDomain, {
        method: "PATCH",
        headers: other.auth,
        params: { id: String(other.domainId) },
        body: { webhookUrl: `https://localhost:${receiver.port}/hooks` },
      });
      expect(saved.status).toBe(200);
      const queued = (await call(sendTest, { method: "POST", headers: other.auth, params: { id: String(other.domainId) } })).body.data;
      await deliver();
      const [refused] = (await deliveriesOf(other.domainId)).filter((d) => d.eventId === queued.eventId);
      expect(refused).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
      expect(refused!.lastError).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is not a public address/);
      expect(receiver.connections()).toBe(connectionsBefore);
    } finally {
      env();
    }
  });

  it("lists deliveries newest first with paging and a status filter, and answers bad input and other users' domains clearly", async () => {
    const params = { id: String(merchant.domainId) };
    // Three deliveries of its own, delivered (the tests before leave more; the one before leaves a public URL).
    await call(patchDomain, { method: "PATCH", headers: merchant.auth, params, body: { webhookUrl: receiver.url } });
    for (let i = 0; i < 3; i++) await call(sendTest, { method: "POST", headers: merchant.auth, params });
    await deliver();
    await receiver.waitFor(3);
    const all = await call(listDeliveries, { headers: merchant.auth, params, path: "/?limit=2" });
    expect(all.status).toBe(200);
    expect(all.body.data.items).toHaveLength(2);
    expect(all.body.data.meta).toMatchObject({ page: 1, limit: 2 });
    const total = all.body.data.meta.total as number;
    expect(total).toBe((await deliveriesOf()).length);
    const [newest, older] = all.body.data.items;
    expect(newest.deliveryId).toBeGreaterThan(older.deliveryId);
    expect(Object.keys(newest)).toEqual(
      expect.arrayContaining(["eventType", "attempts", "lastStatusCode", "lastError", "nextAttemptAt", "status", "eventId"]),
    );
    const page2 = await call(listDeliveries, { headers: merchant.auth, params, path: "/?limit=2&page=2" });
    expect(page2.body.data.items[0].deliveryId).toBeLessThan(older.deliveryId);
    const delivered = await call(listDeliveries, { headers: merchant.auth, params, path: "/?status=delivered&limit=100" });
    expect(delivered.body.data.items.every((d: { status: string }) => d.status === "delivered")).toBe(true);

    // Malformed ids are refused and change nothing.
    const countBefore = (await deliveriesOf()).length;
    for (const [handler, method] of [
      [listDeliveries, "GET"],
      [sendTest, "POST"],
      [rotate, "POST"],
    ] as const) {
      const res = await call(handler, { method, headers: merchant.auth, params: { id: "not-a-number" } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
    const badRedeliver = await call(redeliver, { method: "POST", headers: merchant.auth, params: { id: "-1" } });
    expect(badRedeliver.body.error.code).toBe("VALIDATION_ERROR");
    expect(await deliveriesOf()).toHaveLength(countBefore);
    const [endpointRow] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.domainId, merchant.domainId));
    expect(endpointRow!.secret).toBe(secret);

    const bad = await call(listDeliveries, { headers: merchant.auth, params, path: "/?status=lost" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "VALIDATION_ERROR" });
    const stranger = await signUp();
    expect((await call(listDeliveries, { headers: stranger.auth, params })).status).toBe(404);
    expect((await call(sendTest, { method: "POST", headers: stranger.auth, params })).status).toBe(404);
    expect((await call(rotate, { method: "POST", headers: stranger.auth, params })).status).toBe(404);
    expect((await call(listDeliveries, { params })).status).toBe(401);
  });

  it("keeps events while a domain's webhookUrl is cleared and sends them when it is back; says so for test and rotate", async () => {
    const params = { id: String(merchant.domainId) };
    await call(patchDomain, { method: "PATCH", headers: merchant.auth, params, body: { webhookUrl: receiver.url } });
    const cleared = await call(patchDomain, { method: "PATCH", headers: merchant.auth, params, body: { webhookUrl: null } });
    expect(cleared.body.data).toMatchObject({ webhookUrl: null, webhookSecretHint: null });
    const test = await call(sendTest, { method: "POST", headers: merchant.auth, params });
    expect(test.status).toBe(400);
    expect(test.body.error.message).toContain("webhookUrl");
    // Rotating asks for the member's two-factor code before anything else: this owner has none on.
    const rotated = await call(rotate, { method: "POST", headers: merchant.auth, params });
    expect([rotated.status, rotated.body.error.reason]).toEqual([403, "webhook-secret-needs-two-factor"]);
    const [earlier] = await deliveriesOf();
    const again = await call(redeliver, { method: "POST", headers: merchant.auth, params: { id: String(earlier!.id) } });
    expect(again.status).toBe(400);
    // Each refusal names its reason; the dashboard says it in the merchant's words (no field name, no API route).
    expect([test.body.error.reason, again.body.error.reason]).toEqual(["webhook-url-missing", "webhook-url-removed"]);
    expect(dashboardRefusalWords(test.body.error)).toBe("This domain has no webhook URL yet: save one on the Domains page first.");
    expect(dashboardRefusalWords(again.body.error)).toBe(
      "This domain has no webhook URL any more: save one on the Domains page to redeliver.",
    );
    // A payment while the URL is cleared: its event is kept, pending, and sent once there is a URL again.
    receiver.received.length = 0;
    receiver.behave(() => 200);
    const before = (await deliveriesOf()).length;
    const session = await newSession("1");
    await pay(session.depositAddress, "1");
    await settle();
    expect(await deliveriesOf()).toHaveLength(before + 1);
    await deliver();
    expect(receiver.received).toHaveLength(0);
    const restored = await call(patchDomain, { method: "PATCH", headers: merchant.auth, params, body: { webhookUrl: receiver.url } });
    await deliver();
    expect(receiver.received.map((w) => [typeOf(w), dataOf(w).sessionId])).toEqual([["payment.completed", session.sessionId]]);
    expect(restored.body.data).toMatchObject({ webhookSecretHint: `whsec_…${secret.slice(-4)}` });
    expect(restored.body.data.webhookSecret).toBeUndefined();
  });
});

describe("Inngest driver", () => {
  it("dispatch-webhooks leases due deliveries and sends one event each; deliver-webhook attempts one", async () => {
    env({ JOBS: "inngest", INNGEST_DEV: "1" });
    receiver.received.length = 0;
    receiver.behave(() => 200);
    const queued = (await call(sendTest, { method: "POST", headers: merchant.auth, params: { id: String(merchant.domainId) } })).body.data;
    const handed: unknown[] = [];
    const dispatch = new InngestTestEngine({
      function: dispatchWebhooks,
      steps: [
        ...Array.from({ length: DISPATCH_ROUNDS }, (_, i) => ({ id: `pause-${i}`, handler: () => undefined })),
        ...Array.from({ length: DISPATCH_ROUNDS }, (_, i) => ({ id: `deliver-${i}`, handler: () => void handed.push(i) })),
      ],
    });
    expect((await dispatch.execute()).result).toEqual({ dispatched: 1 });
    expect(handed).toEqual([0]);
    const [leased] = (await deliveriesOf()).filter((d) => d.eventId === queued.eventId);
    expect(leased!.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 60_000); // claimed: the cron will not hand it out twice

    const run = new InngestTestEngine({
      function: deliverWebhook,
      events: [
        {
          name: "bsc-pay/webhook.due",
          data: { deliveryId: leased!.id, endpointId: leased!.endpointId, lease: leased!.lockedUntil!.toISOString() },
        },
      ],
    });
    expect((await run.execute()).result).toEqual({ outcome: "delivered" });
    expect(receiver.received.map((w) => w.headers["webhook-id"])).toEqual([queued.eventId]);
    env();
  });
});
