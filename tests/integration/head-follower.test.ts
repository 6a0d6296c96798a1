/**
 * Following new heads over WebSocket against a real anvil (docs/design.md §20), through a proxy that
 * drops sockets, lets a subscription go silent, stalls it at the TCP level (no pongs), swallows
 * or refuses the subscription, or accepts and closes sockets in a storm: the follower notices each
 * within its bound and always comes back to a working subscription, never faster than its backoff
 * allows. Where a bound is long in production (pings: 20 s), the follower is given shorter waits.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { type FollowerTiming, HeadFollower } from "@/lib/engine/scanner/head-follower";
import { useTestChain } from "../helpers/chain";
import { startWsProxy, type WsProxy } from "../helpers/ws-proxy";

const chain = useTestChain({ chainId: 56 });
let proxy: WsProxy;

beforeAll(async () => {
  proxy = await startWsProxy(chain().url);
});
afterAll(async () => {
  await proxy?.close();
});
afterEach(() => {
  proxy.fault = null;
  proxy.refuseNext = 0;
});

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A follower on `urls`, stopped after `body`, with the heads it reported. */
async function following(
  urls: string[],
  body: (follower: HeadFollower, heads: bigint[]) => Promise<void>,
  timing: Partial<FollowerTiming> = {},
): Promise<void> {
  const heads: bigint[] = [];
  const follower = new HeadFollower("bsc", urls, (block) => heads.push(block), timing).start();
  try {
    await body(follower, heads);
  } finally {
    follower.stop();
  }
}

const mine = async (blocks = 1) => {
  await chain().client.mine({ blocks });
  return chain().client.getBlockNumber({ cacheTime: 0 });
};

describe("following new heads over WebSocket", () => {
  it("reports each new head as it is mined", async () => {
    await following([proxy.url], async (follower, heads) => {
      await until("the subscription", () => follower.state.subscribed);
      const first = await mine();
      const second = await mine();
      await until("both heads", () => heads.includes(first) && heads.includes(second));
      expect(heads.indexOf(first)).toBeLessThan(heads.indexOf(second));
      expect(follower.state).toMatchObject({ subscribed: true, lastHead: second, connects: 1, lastError: null });
    });
  });

  it("subscribes again after the socket drops", async () => {
    await following([proxy.url], async (follower, heads) => {
      await until("the subscription", () => follower.state.subscribed);
      proxy.drop();
      await until("the drop to be noticed", () => !follower.state.subscribed, 5_000);
      await until("a new subscription", () => follower.state.subscribed);
      expect(follower.state.connects).toBe(2);
      const head = await mine();
      await until("the head after the reconnect", () => heads.includes(head));
    });
  });

  it("replaces a subscription that went silent while the chain moved (as the HTTP poll sees it)", async () => {
    await following([proxy.url], async (follower, heads) => {
      await until("the subscription", () => follower.state.subscribed);
      proxy.silenceOpen();
      const unseen = await mine(2);
      await new Promise((r) => setTimeout(r, 300));
      expect(heads).not.toContain(unseen);
      // A quiet chain is no silence: nothing happens until the poll has seen the chain move.
      expect(follower.state.connects).toBe(1);
      follower.notePolledHead(unseen);
      await until("the silent socket to be replaced", () => follower.state.connects === 2 && follower.state.subscribed, 8_000);
      expect(follower.state.lastError).toMatch(/^silent: the chain reached block \d+/);
      const head = await mine();
      await until("heads on the new subscription", () => heads.includes(head));
    });
  });

  it("backs off a reconnect storm, then recovers", async () => {
    const before = proxy.accepted;
    proxy.refuseNext = 1_000;
    await following([proxy.url], async (follower) => {
      await new Promise((r) => setTimeout(r, 3_000));
      // Backoff from 250 ms, doubling (±25 %): at most 5 tries in 3 s, not hundreds.
      const tries = proxy.accepted - before;
      expect(tries).toBeGreaterThanOrEqual(2);
      expect(tries).toBeLessThanOrEqual(5);
      expect(follower.state.subscribed).toBe(false);
      proxy.refuseNext = 0;
      await until("the subscription once the storm ends", () => follower.state.subscribed, 10_000);
    });
  });

  it("moves on to the next endpoint when one refuses to connect", async () => {
    await following(["ws://127.0.0.1:1", proxy.url], async (follower, heads) => {
      await until("the subscription on the second endpoint", () => follower.state.subscribed);
      expect(follower.state.connects).toBe(2);
      const head = await mine();
      await until("its head", () => heads.includes(head));
    });
  });

  it("notices a socket stalled at the TCP level (pings unanswered) within two ping periods, and subscribes again", async () => {
    const pingEveryMs = 2_000;
    const pings = vi.spyOn(WebSocket.prototype, "ping");
    await following(
      [proxy.url],
      async (follower, heads) => {
        await until("the subscription", () => follower.state.subscribed);
        proxy.stallOpen();
        const stalledAt = Date.now();
        pings.mockClear();
        await until("the stall to be noticed", () => follower.state.lastError !== null, 15_000);
        const noticedAfter = Date.now() - stalledAt;
        expect(follower.state.lastError).toBe("no answer to pings");
        // One ping per half period while the pong is late, not one per check (every 500 ms).
        expect(pings.mock.calls.length).toBeLessThanOrEqual(4);
        pings.mockRestore();
        // No pong for 2 × pingEveryMs, seen at the next check (every 500 ms); a loaded machine adds a little.
        expect(noticedAfter).toBeGreaterThanOrEqual(1.5 * pingEveryMs);
        expect(noticedAfter).toBeLessThanOrEqual(2 * pingEveryMs + 500 + 1_000);
        await until("a new subscription", () => follower.state.subscribed);
        expect(follower.state.connects).toBe(2);
        const head = await mine();
        await until("the head after the stall", () => heads.includes(head));
      },
      { pingEveryMs },
    );
  });

  it("gives up on a subscription the node never confirms, after the connect timeout, and subscribes once it does", async () => {
    const connectTimeoutMs = 1_500;
    proxy.fault = "swallow-subscribe";
    await following(
      [proxy.url],
      async (follower) => {
        const startedAt = Date.now();
        await until("the unconfirmed subscription to be given up", () => follower.state.lastError !== null, 10_000);
        expect(follower.state.lastError).toBe("no subscription within the connect timeout");
        expect(Date.now() - startedAt).toBeGreaterThanOrEqual(connectTimeoutMs);
        expect(Date.now() - startedAt).toBeLessThanOrEqual(connectTimeoutMs + 500 + 1_000);
        expect(follower.state.subscribed).toBe(false);
        proxy.fault = null;
        await until("the subscription once the node confirms it", () => follower.state.subscribed, 10_000);
      },
      { connectTimeoutMs },
    );
  });

  it("backs off a node that refuses eth_subscribe (no spinning), and subscribes once it accepts", async () => {
    proxy.fault = "refuse-subscribe";
    const before = proxy.accepted;
    await following([proxy.url], async (follower) => {
      await new Promise((r) => setTimeout(r, 3_000));
      expect(follower.state.lastError).toMatch(/^the node refused the subscription: the method eth_subscribe does not exist/);
      expect(follower.state.subscribed).toBe(false);
      // Backoff from 250 ms, doubling (±25 %): at most 5 tries in 3 s, not hundreds.
      const tries = proxy.accepted - before;
      expect(tries).toBeGreaterThanOrEqual(2);
      expect(tries).toBeLessThanOrEqual(5);
      proxy.fault = null;
      await until("the subscription once the node accepts it", () => follower.state.subscribed, 10_000);
    });
  });
});
