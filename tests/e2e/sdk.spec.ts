import { createServer, type IncomingHttpHeaders } from "node:http";
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from "node:net";
import { expect, test } from "@playwright/test";
import type { Address } from "viem";
import { BscPayNetworkError, createClient, verifyWebhook, WebhookVerificationError } from "../../sdk/src/index";
import { apiMerchant, payDirectly } from "./helpers/merchant";

/**
 * The SDK (sdk/) against the running product and its anvil, as a shop's server would use it:
 * create → pay on chain → status; the product's own webhook verified, a tampered and a stale one
 * refused; the product's real rate limit (429 with Retry-After) waited out; a lost connection on a
 * call without an Idempotency-Key not sent again, and one with a key sent again without a double.
 */

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

async function receiver() {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/bsc-pay`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A TCP hop in front of the product that can lose the answer of the next request: the request
 * reaches the product (which acts on it), the connection is then cut before the answer gets back.
 */
async function lossyHop(target: string) {
  const { hostname, port } = new URL(target);
  let loseNext = 0;
  let requests = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let lose = false;
    client.on("data", (chunk) => {
      if (/^(GET|POST|PUT|PATCH|DELETE) /.test(chunk.toString("latin1", 0, 8))) {
        requests++;
        if (loseNext > 0) {
          loseNext--;
          lose = true;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (lose) client.destroy();
      else client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    loseNextAnswers: (n: number) => {
      loseNext = n;
    },
    requests: () => requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test("SDK: create → pay on anvil → status, and the product's webhook verified; tampered and stale ones refused", async ({
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const hooks = await receiver();
  try {
    const merchant = await apiMerchant(request, ["https://shop.example.com"]);
    const domains = (await (await request.get("/api/user/domains", { headers: merchant.headers })).json()).data;
    const domainId = (domains.items ?? domains)[0].domainId as number;
    const saved = await request.patch(`/api/user/domains/${domainId}`, { headers: merchant.headers, data: { webhookUrl: hooks.url } });
    const secret = (await saved.json()).data.webhookSecret as string;
    expect(secret).toMatch(/^whsec_/);

    const bscpay = createClient({ apiKey: merchant.key, baseUrl: baseURL! });
    const session = await bscpay.payments.create({ tokenId: merchant.tokenId, amount: "3.5", orderId: "SDK-1", metadata: { cart: 7 } });
    expect(session).toMatchObject({ status: "pending", amount: "3.5", orderId: "SDK-1" });
    expect(session.checkoutUrl).toContain(`/pay/${session.sessionId}`);
    expect((await bscpay.payments.status(session.sessionId)).status).toBe("pending");

    const txHash = await payDirectly(session.depositAddress as Address, "3.5");
    await expect.poll(async () => (await bscpay.payments.status(session.sessionId)).status, { timeout: 30_000 }).toBe("completed");
    const paid = await bscpay.payments.status(session.sessionId);
    expect(paid).toMatchObject({ receivedAmount: "3.5", txHash });

    const seen: string[] = [];
    for await (const payment of bscpay.payments.history({ status: "completed" })) seen.push(payment.sessionId);
    expect(seen).toEqual([session.sessionId]);

    await expect.poll(() => hooks.deliveries.some((d) => d.body.includes('"payment.completed"')), { timeout: 30_000 }).toBe(true);
    const delivery = hooks.deliveries.find((d) => d.body.includes('"payment.completed"'))!;
    const event = await verifyWebhook(delivery.body, delivery.headers, secret);
    expect(event.type).toBe("payment.completed");
    if (event.type !== "payment.completed") throw new Error("narrowing");
    expect(event.data).toMatchObject({ sessionId: session.sessionId, status: "completed", orderId: "SDK-1", metadata: { cart: 7 } });

    const tampered = delivery.body.replace('"3.5"', '"35"');
    expect(tampered).not.toBe(delivery.body);
    const refusal = await verifyWebhook(tampered, delivery.headers, secret).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(WebhookVerificationError);
    expect((refusal as WebhookVerificationError).reason).toBe("signature-mismatch");
    const tenMinutesLater = new Date(Date.now() + 600_000);
    const stale = await verifyWebhook(delivery.body, delivery.headers, secret, { now: tenMinutesLater }).catch((e: unknown) => e);
    expect((stale as WebhookVerificationError).reason).toBe("timestamp-too-old");
  } finally {
    await hooks.close();
  }
});

test("SDK: the product's 429 is waited out for its Retry-After, then the call goes through", async ({ request, baseURL }) => {
  test.setTimeout(180_000);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const session = await merchant.createPayment("1");
  // The flood asks for a malformed id: refused after the rate limit, before any database work.
  const statusUrl = `${baseURL}/api/v1/payment/not-a-session/status`;
  const headers = { "x-api-key": merchant.key };
  // Other requests of the same key keep its bucket (RATE_LIMIT_PER_MINUTE, 600 in playwright.config.ts,
  // refilled continuously) empty until the SDK has been refused once; the bucket refills between a
  // flood request and the SDK's now and then, so a round whose first attempt got through is repeated.
  let flooding = false;
  let floodRefused = false;
  const flood = async () => {
    while (flooding) {
      const status = await fetch(statusUrl, { headers }).then((r) => r.arrayBuffer().then(() => r.status));
      if (status === 429) floodRefused = true;
    }
  };
  let attempts: { status: number; retryAfter: string | null; at: number }[] = [];
  const bscpay = createClient({
    apiKey: merchant.key,
    baseUrl: baseURL!,
    maxRetries: 5,
    // Observes the real answers; the product decides them.
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      attempts.push({ status: response.status, retryAfter: response.headers.get("retry-after"), at: Date.now() });
      if (response.status === 429) flooding = false;
      return response;
    },
  });
  for (let round = 0; round < 20 && !attempts.some((a) => a.status === 429); round++) {
    flooding = true;
    floodRefused = false;
    const flooders = Array.from({ length: 16 }, flood);
    await expect.poll(() => floodRefused, { timeout: 90_000 }).toBe(true);
    attempts = [];
    const status = await bscpay.payments.status(session.sessionId);
    expect(status.status).toBe("pending");
    flooding = false;
    await Promise.all(flooders);
  }
  const refused = attempts.findIndex((a) => a.status === 429);
  expect(refused).toBeGreaterThanOrEqual(0);
  const retryAfter = Number(attempts[refused]!.retryAfter);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(attempts.at(-1)!.status).toBe(200);
  // The next attempt went out no sooner than Retry-After said.
  expect(attempts[refused + 1]!.at - attempts[refused]!.at).toBeGreaterThanOrEqual(retryAfter * 1000 - 50);
});

test("SDK: a lost answer is not sent again without an Idempotency-Key; with one it is, and nothing is done twice", async ({
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const hop = await lossyHop(baseURL!);
  try {
    const bscpay = createClient({ apiKey: merchant.key, baseUrl: hop.url, sleep: () => Promise.resolve() });

    // Cancel has no Idempotency-Key: the product cancelled, the answer was lost, the SDK says so and stops.
    const doomed = await merchant.createPayment("2");
    hop.loseNextAnswers(1);
    const before = hop.requests();
    const lost = await bscpay.payments.cancel(doomed.sessionId).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(BscPayNetworkError);
    expect(hop.requests() - before).toBe(1);
    expect((await merchant.status(doomed.sessionId)).status).toBe("cancelled");
    // Sent again by hand it changes nothing more: the session stays cancelled.
    expect((await bscpay.payments.cancel(doomed.sessionId)).status).toBe("cancelled");

    // Create carries a key: its answer is lost, the SDK sends it again with the same key, one session results.
    hop.loseNextAnswers(1);
    const orderId = `SDK-IDEM-${Date.now()}`;
    const created = await bscpay.payments.create({ tokenId: merchant.tokenId, amount: "2", orderId });
    expect(created.orderId).toBe(orderId);
    const sessions = await bscpay.payments.history({ orderId }).toArray();
    expect(sessions.map((s) => s.sessionId)).toEqual([created.sessionId]);
  } finally {
    await hop.close();
  }
});
