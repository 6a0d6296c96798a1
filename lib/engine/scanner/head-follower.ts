/**
 * Follows a network's new heads over WebSocket (`eth_subscribe newHeads`), so the scanner reads a
 * block's logs as soon as the block exists instead of at its next poll. Polling over HTTP stays
 * the fallback and the backstop: this only wakes the scanner up, it never decides what is read.
 *
 * What goes wrong with sockets, and what happens then:
 *   - the socket drops, or never opens, or the node refuses eth_subscribe, or never confirms it
 *     within connectTimeoutMs (5 s) → reconnect, to the next endpoint, after a backoff;
 *   - the subscription goes silent while the chain moves (the poll saw a head this socket did not
 *     report within silentGraceMs, 2 s), or the socket stops answering pings (none answered for
 *     2 × pingEveryMs, 20 s: a TCP stall on a quiet chain) → replaced the same way;
 *   - a reconnect storm (a proxy that accepts and drops at once, a node refusing every
 *     subscription) → the backoff doubles from 250 ms up to 30 s, and is reset only once a head
 *     has arrived; the poll goes on meanwhile.
 * A chain that mines nothing (an automining test node) is not silence: only heads the poll saw
 * and this socket did not count against it.
 */
import WebSocket from "ws";
import { redactUrls } from "../../base/error-text";
import { log } from "../../base/log";

/** How quickly each failure is noticed, and how retries back off (tests shorten the waits to see each path in seconds). */
export interface FollowerTiming {
  /** Socket open and subscription confirmed within this, or the attempt failed. */
  connectTimeoutMs: number;
  /** A head the poll saw and this socket did not report within this: silent. */
  silentGraceMs: number;
  /** A ping at least this often while no pong came; no pong for twice this: the socket is dead. */
  pingEveryMs: number;
  minBackoffMs: number;
  maxBackoffMs: number;
}

export const FOLLOWER_TIMING: FollowerTiming = {
  connectTimeoutMs: 5_000,
  silentGraceMs: 2_000,
  pingEveryMs: 10_000,
  minBackoffMs: 250,
  maxBackoffMs: 30_000,
};
const CHECK_EVERY_MS = 500;
const SUBSCRIBE_ID = 1;

export interface HeadFollowerState {
  /** Subscribed and heads arriving on this socket. */
  subscribed: boolean;
  lastHead: bigint | null;
  lastHeadAt: number | null;
  /** Sockets opened (or attempted) since start: a storm shows here. */
  connects: number;
  lastError: string | null;
}

export class HeadFollower {
  readonly state: HeadFollowerState = { subscribed: false, lastHead: null, lastHeadAt: null, connects: 0, lastError: null };
  private socket: WebSocket | null = null;
  private endpoint = 0;
  private backoffMs: number;
  private readonly timing: FollowerTiming;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private subscription: string | null = null;
  private lastPongAt = 0;
  private lastPingAt = 0;
  /** The poll's head this socket has not reported yet, and since when. */
  private polledAhead: { block: bigint; since: number } | null = null;

  constructor(
    readonly network: string,
    private readonly urls: readonly string[],
    private readonly onHead: (block: bigint) => void,
    timing: Partial<FollowerTiming> = {},
  ) {
    this.timing = { ...FOLLOWER_TIMING, ...timing };
    this.backoffMs = this.timing.minBackoffMs;
  }

  start(): this {
    if (this.urls.length > 0 && !this.socket && !this.retryTimer) this.connect();
    return this;
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.closeSocket();
  }

  /**
   * What the HTTP poll saw: a head beyond what the socket reported, still unreported after
   * silentGraceMs, means the subscription went silent.
   */
  notePolledHead(block: bigint, now = Date.now()): void {
    if (!this.state.subscribed || (this.state.lastHead !== null && this.state.lastHead >= block)) {
      this.polledAhead = null;
      return;
    }
    if (!this.polledAhead || this.polledAhead.block < block) this.polledAhead = { block, since: this.polledAhead?.since ?? now };
  }

  private connect(): void {
    if (this.stopped) return;
    const url = this.urls[this.endpoint % this.urls.length] ?? "";
    this.state.connects++;
    this.subscription = null;
    this.polledAhead = null;
    const socket = new WebSocket(url, { handshakeTimeout: this.timing.connectTimeoutMs });
    this.socket = socket;
    const openedAt = Date.now();
    this.lastPongAt = openedAt;
    this.lastPingAt = openedAt;
    socket.on("open", () => {
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: SUBSCRIBE_ID, method: "eth_subscribe", params: ["newHeads"] }));
    });
    socket.on("pong", () => {
      this.lastPongAt = Date.now();
    });
    socket.on("message", (data) => this.receive(socket, data));
    socket.on("error", (error) => this.fail(socket, `socket error: ${error.message}`));
    socket.on("close", () => this.fail(socket, "socket closed"));
    this.watchdog = setInterval(() => this.check(socket, openedAt), CHECK_EVERY_MS);
  }

  private receive(socket: WebSocket, data: WebSocket.RawData): void {
    if (socket !== this.socket) return;
    let message: {
      id?: number;
      result?: unknown;
      error?: { message?: string };
      method?: string;
      params?: { subscription?: string; result?: { number?: string } };
    };
    try {
      message = JSON.parse(data.toString());
    } catch {
      return; // not JSON-RPC: nothing to act on
    }
    if (message.id === SUBSCRIBE_ID) {
      if (typeof message.result === "string") {
        this.subscription = message.result;
        this.state.subscribed = true;
        log.info({ network: this.network }, "following new heads over WebSocket");
      } else this.fail(socket, `the node refused the subscription: ${message.error?.message ?? "no answer"}`);
      return;
    }
    const head = message.params?.result?.number;
    if (message.method !== "eth_subscription" || message.params?.subscription !== this.subscription || typeof head !== "string") return;
    let block: bigint;
    try {
      block = BigInt(head);
    } catch {
      return; // a head without a readable number wakes nothing
    }
    this.state.lastHead = block;
    this.state.lastHeadAt = Date.now();
    this.state.lastError = null;
    this.backoffMs = this.timing.minBackoffMs;
    if (this.polledAhead && this.polledAhead.block <= block) this.polledAhead = null;
    this.onHead(block);
  }

  private check(socket: WebSocket, openedAt: number): void {
    const now = Date.now();
    const { connectTimeoutMs, silentGraceMs, pingEveryMs } = this.timing;
    if (!this.subscription && now - openedAt > connectTimeoutMs) this.fail(socket, "no subscription within the connect timeout");
    else if (this.polledAhead && now - this.polledAhead.since > silentGraceMs) {
      this.fail(socket, `silent: the chain reached block ${this.polledAhead.block} and the subscription did not say so`);
    } else if (now - this.lastPongAt > 2 * pingEveryMs) this.fail(socket, "no answer to pings");
    // One ping per half period while no pong came, not one per check.
    else if (socket.readyState === WebSocket.OPEN && now - this.lastPongAt >= pingEveryMs / 2 && now - this.lastPingAt >= pingEveryMs / 2) {
      this.lastPingAt = now;
      socket.ping();
    }
  }

  private fail(socket: WebSocket, reason: string): void {
    if (socket !== this.socket) return; // an older socket's last words
    this.closeSocket();
    if (this.stopped) return;
    this.state.lastError = redactUrls(reason).slice(0, 200);
    this.endpoint++;
    const { maxBackoffMs } = this.timing;
    const delay = Math.min(maxBackoffMs, this.backoffMs) * (0.75 + Math.random() * 0.5);
    this.backoffMs = Math.min(maxBackoffMs, this.backoffMs * 2);
    log.warn(
      { network: this.network, reason: this.state.lastError, retryInMs: Math.round(delay) },
      "new-heads subscription lost; polling meanwhile",
    );
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private closeSocket(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    const socket = this.socket;
    this.socket = null;
    this.subscription = null;
    this.state.subscribed = false;
    socket?.removeAllListeners();
    socket?.on("error", () => {}); // a late error of a socket we let go
    socket?.terminate();
  }
}
