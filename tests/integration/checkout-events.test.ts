import { NextRequest } from "next/server";
import { type Address, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as embedCheck } from "@/app/api/checkout/[sessionId]/embed/route";
import { GET as events } from "@/app/api/checkout/[sessionId]/events/route";
import { GET as checkout } from "@/app/api/checkout/[sessionId]/route";
import { POST as create } from "@/app/api/v1/payment/create/route";
import { getDb } from "@/lib/db";
import { scanNetworkStep } from "@/lib/ops/jobs/steps";
import { checkoutHub, resetCheckoutHub } from "@/lib/web/checkout/checkout-hub";
import { MAX_STREAMS_PER_CLIENT, openStreams } from "@/lib/web/checkout/checkout-streams";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { payTo } from "../helpers/engine";
import { call, fromClient } from "../helpers/http";

/** The checkout's live status: many open pages, one change feed. */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
afterAll(() => resetCheckoutHub());

let merchant: Merchant;
let token: Address;

async function newSession(amount: string) {
  const res = await call(create, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { tokenId: merchant.tokenId, amount },
  });
  return res.body.data as { sessionId: string; depositAddress: Address };
}

/** Opens the event stream as a browser would and collects its events until it ends. */
let clients = 0;
async function openStream(sessionId: string, client = `10.0.${Math.floor(++clients / 250)}.${clients % 250}`) {
  const controller = new AbortController();
  const req = new NextRequest(`http://localhost:3000/api/checkout/${sessionId}/events`, {
    signal: controller.signal,
    headers: fromClient(client),
  });
  const res = await events(req, { params: Promise.resolve({ sessionId }) });
  const received: { status: string; receivedAmount: string | null; at: number }[] = [];
  const done = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) return;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf("\n\n"); cut !== -1; cut = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = block.split("\n").find((line) => line.startsWith("data: "));
        if (data) received.push({ ...JSON.parse(data.slice(6)), at: Date.now() });
      }
    }
  })();
  return { res, received, done, close: () => controller.abort() };
}

async function scanUntilCompleted(sessionId: string): Promise<number> {
  for (let i = 0; i < 20; i++) {
    await scanNetworkStep(db(), "bsc");
    const view = await call(checkout, { params: { sessionId } });
    if (view.body.data.status === "completed") return Date.now();
    await chain().client.mine({ blocks: 1 });
  }
  throw new Error("the payment did not complete");
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  resetCheckoutHub();
  token = await deployTestToken(chain().url, { symbol: "SSE" });
  merchant = await setUpMerchant({ contractAddress: token, network: "bsc" });
});

describe("GET /api/checkout/:sessionId/events", () => {
  it("sends the status at once, follows partial payments, and ends at a terminal state", async () => {
    const session = await newSession("10");
    const stream = await openStream(session.sessionId);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    await expect.poll(() => stream.received.length).toBeGreaterThan(0);
    expect(stream.received[0]).toMatchObject({ status: "pending", receivedAmount: null, remainingAmount: "10", confirmationsRequired: 1 });

    await payTo(chain().url, token, session.depositAddress, parseUnits("4", 18));
    await chain().client.mine({ blocks: 1 });
    await scanNetworkStep(db(), "bsc");
    await expect
      .poll(() => stream.received.at(-1), { timeout: 5_000 })
      .toMatchObject({ status: "pending", receivedAmount: "4", remainingAmount: "6" });
    const view = (await call(checkout, { params: { sessionId: session.sessionId } })).body.data;
    expect(view).toMatchObject({ remainingAmount: "6", paymentUri: expect.stringMatching(/uint256=6000000000000000000$/) });

    await payTo(chain().url, token, session.depositAddress, parseUnits("6", 18));
    await chain().client.mine({ blocks: 1 });
    await scanUntilCompleted(session.sessionId);
    await stream.done; // the server ends the stream after the terminal event
    expect(stream.received.at(-1)).toMatchObject({ status: "completed", receivedAmount: "10", remainingAmount: "0" });
  });

  it("answers 404 for an unknown session and 400 for a malformed id", async () => {
    const unknown = await events(new NextRequest("http://localhost:3000/x"), {
      params: Promise.resolve({ sessionId: crypto.randomUUID() }),
    });
    expect(unknown.status).toBe(404);
    const malformed = await events(new NextRequest("http://localhost:3000/x"), { params: Promise.resolve({ sessionId: "nope" }) });
    expect(malformed.status).toBe(400);
  });

  it("delivers `completed` to 200 open streams within 3 s, with database reads that do not grow with the streams", async () => {
    resetCheckoutHub();
    const hub = checkoutHub(getDb);
    const session = await newSession("5");
    const streams = await Promise.all(Array.from({ length: 200 }, () => openStream(session.sessionId)));
    await expect.poll(() => streams.every((s) => s.received.length > 0), { timeout: 5_000 }).toBe(true);

    // Idle for three ticks: one query per tick for all 200 pages.
    const before = { ...hub.stats };
    await new Promise((r) => setTimeout(r, 3_200));
    const queries = hub.stats.queries - before.queries;
    const ticks = hub.stats.ticks - before.ticks;
    expect(ticks).toBeGreaterThanOrEqual(2);
    expect(queries).toBe(ticks);

    await payTo(chain().url, token, session.depositAddress, parseUnits("5", 18));
    await chain().client.mine({ blocks: 1 });
    const completedAt = await scanUntilCompleted(session.sessionId);
    await Promise.all(streams.map((s) => s.done));
    const delays = streams.map((s) => s.received.find((e) => e.status === "completed")!.at - completedAt);
    expect(Math.max(...delays)).toBeLessThan(3_000);
    expect(hub.watching).toBe(0); // every stream ended; the feed stops
  });

  it("caps open streams per client address (429 with Retry-After, the page polls instead); a closed stream frees its place", async () => {
    const session = await newSession("6");
    const mine = await Promise.all(Array.from({ length: MAX_STREAMS_PER_CLIENT }, () => openStream(session.sessionId, "203.0.113.7")));
    expect(mine.every((s) => s.res.status === 200)).toBe(true);
    const refused = await events(
      new NextRequest(`http://localhost:3000/api/checkout/${session.sessionId}/events`, { headers: fromClient("203.0.113.7") }),
      {
        params: Promise.resolve({ sessionId: session.sessionId }),
      },
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("10");
    expect((await refused.json()).error).toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringContaining("poll GET /api/checkout/:sessionId"),
    });
    // Another address is not affected.
    const other = await openStream(session.sessionId, "198.51.100.1");
    expect(other.res.status).toBe(200);
    expect(openStreams().total).toBe(MAX_STREAMS_PER_CLIENT + 1);

    mine[0]!.close();
    await mine[0]!.done.catch(() => {});
    await expect.poll(() => openStreams().total).toBe(MAX_STREAMS_PER_CLIENT);
    const again = await openStream(session.sessionId, "203.0.113.7");
    expect(again.res.status).toBe(200);
    for (const s of [...mine.slice(1), other, again]) {
      s.close();
      await s.done.catch(() => {});
    }
    await expect.poll(() => openStreams().total).toBe(0);
  });

  it("tells an embedding page whether its origin may hear the outcome: whitelisted domains only", async () => {
    const session = await newSession("1");
    const ask = async (origin: string) =>
      (await call(embedCheck, { path: `/?origin=${encodeURIComponent(origin)}`, params: { sessionId: session.sessionId } })).body.data
        .allowed;
    expect(await ask("https://shop.example.com")).toBe(true);
    expect(await ask("https://shop.example.com:443")).toBe(true);
    expect(await ask("https://evil.example.com")).toBe(false);
    expect(await ask("not a url")).toBe(false);
  });
});
