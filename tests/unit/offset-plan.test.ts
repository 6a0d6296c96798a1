import { describe, expect, it } from "vitest";
import { offsetPlan } from "@/lib/base/pagination";

/** Which end of the index a `page` reads its ids from, and which rows: the same rows either way. */
function rowsOfPage(page: number, limit: number, total: number): number[] {
  const plan = offsetPlan({ page, limit }, total);
  // Positions newest first: 0 is the newest row. From the oldest end, position p is total - 1 - p.
  const read = Array.from({ length: plan.limit }, (_, i) => plan.offset + i).filter((p) => p < total);
  return plan.newestFirst ? read : read.map((p) => total - 1 - p).reverse();
}

describe("offsetPlan", () => {
  it("gives every page the rows an offset from the newest would, reading at most half the history", () => {
    for (const total of [0, 1, 5, 10, 23, 100]) {
      for (const limit of [1, 3, 4, 20]) {
        for (let page = 1; page <= Math.ceil(total / limit) + 2; page++) {
          const expected = Array.from({ length: total }, (_, p) => p).slice((page - 1) * limit, page * limit);
          expect(rowsOfPage(page, limit, total), `total ${total}, limit ${limit}, page ${page}`).toEqual(expected);
          const plan = offsetPlan({ page, limit }, total);
          if ((page - 1) * limit < total) expect(plan.offset).toBeLessThanOrEqual(Math.ceil(total / 2));
        }
      }
    }
  });

  it("reads the deepest page of a million from the oldest end, and a page past the end from the newest", () => {
    expect(offsetPlan({ page: 50_000, limit: 20 }, 1_000_000)).toEqual({ newestFirst: false, offset: 0, limit: 20 });
    expect(offsetPlan({ page: 2, limit: 20 }, 1_000_000)).toEqual({ newestFirst: true, offset: 20, limit: 20 });
    expect(offsetPlan({ page: 9, limit: 20 }, 5)).toEqual({ newestFirst: true, offset: 160, limit: 20 });
  });
});
