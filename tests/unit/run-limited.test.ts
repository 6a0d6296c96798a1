import { describe, expect, it } from "vitest";
import { runLimited } from "@/lib/ops/jobs/run-limited";

describe("runLimited", () => {
  it("runs every item, at most `limit` at a time, past one that fails", async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await runLimited([1, 2, 3, 4, 5, 6], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (n === 3) throw new Error("one item fails");
      done.push(n);
    });
    expect(done.sort()).toEqual([1, 2, 4, 5, 6]);
    expect(most).toBe(2);
  });

  it("takes no new item once go() turns false; the items already started finish", async () => {
    let leading = true;
    const started: number[] = [];
    const finished: number[] = [];
    await runLimited(
      [1, 2, 3, 4, 5, 6],
      2,
      async (n) => {
        started.push(n);
        if (n === 2) leading = false; // leadership lost while items 1 and 2 run
        await new Promise((r) => setTimeout(r, 5));
        finished.push(n);
      },
      () => leading,
    );
    expect(started).toEqual([1, 2]);
    expect(finished.sort()).toEqual([1, 2]);
  });
});
