import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HEAD_CATCH_UP_PATIENCE_MS, HEAD_CATCH_UP_RETRY_MS, HeadCatchUp } from "@/lib/ops/jobs/head-catch-up";

describe("HeadCatchUp", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks for another scan shortly while the HTTP head is behind the announced one, and stops once it is served", () => {
    const rescan = vi.fn();
    const catchUp = new HeadCatchUp(rescan);
    catchUp.announce("bsc", 10n, 0);
    catchUp.served("bsc", 9n, 0);
    catchUp.served("bsc", 9n, 0); // one retry pending at a time
    vi.advanceTimersByTime(HEAD_CATCH_UP_RETRY_MS);
    expect(rescan).toHaveBeenCalledTimes(1);
    catchUp.served("bsc", 10n, 100);
    vi.advanceTimersByTime(1_000);
    expect(rescan).toHaveBeenCalledTimes(1);
  });

  it("gives up after its patience (the poll takes over), and ignores networks with no announced head", () => {
    const rescan = vi.fn();
    const catchUp = new HeadCatchUp(rescan);
    catchUp.served("bsc-testnet", 1n, 0);
    catchUp.announce("bsc", 10n, 0);
    catchUp.served("bsc", 9n, HEAD_CATCH_UP_PATIENCE_MS + 1);
    vi.advanceTimersByTime(1_000);
    expect(rescan).not.toHaveBeenCalled();
  });

  it("keeps the newest announced head", () => {
    const rescan = vi.fn();
    const catchUp = new HeadCatchUp(rescan);
    catchUp.announce("bsc", 12n, 0);
    catchUp.announce("bsc", 11n, 0);
    catchUp.served("bsc", 11n, 10);
    vi.advanceTimersByTime(HEAD_CATCH_UP_RETRY_MS);
    expect(rescan).toHaveBeenCalledTimes(1);
  });
});
