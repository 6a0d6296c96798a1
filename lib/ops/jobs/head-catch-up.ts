/**
 * A head announced over WebSocket that the HTTP endpoint does not serve yet (two providers, or
 * nodes behind a load balancer): the scan it woke reads the HTTP head, finds nothing new, and the
 * block would wait for the next head or poll. Instead another scan is asked for every RETRY_MS
 * until the HTTP node serves the announced head, for at most PATIENCE_MS after the announcement.
 * The scan itself still reads only up to the HTTP node's own head: logs come from a node that has
 * the block, never from one that would answer "no logs" for a block it has not seen.
 */
export const HEAD_CATCH_UP_RETRY_MS = 75;
export const HEAD_CATCH_UP_PATIENCE_MS = 1_000;

export class HeadCatchUp {
  private readonly announced = new Map<string, { block: bigint; at: number }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly rescan: () => void) {}

  announce(network: string, block: bigint, now = Date.now()): void {
    const known = this.announced.get(network);
    if (!known || block > known.block) this.announced.set(network, { block, at: now });
  }

  /** The head a scan of `network` read over HTTP: behind the announced one, a scan follows shortly. */
  served(network: string, head: bigint, now = Date.now()): void {
    const known = this.announced.get(network);
    if (!known) return;
    if (head >= known.block || now - known.at > HEAD_CATCH_UP_PATIENCE_MS) {
      this.announced.delete(network);
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.rescan();
    }, HEAD_CATCH_UP_RETRY_MS);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.announced.clear();
  }
}
