import type { PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { type NativeBlock, nativeTransfers, readBlocks } from "@/lib/engine/scanner/native-reader";

const block = (transactions: unknown[]): NativeBlock => ({
  number: 7n,
  hash: `0x${"11".repeat(32)}`,
  timestamp: new Date(0),
  transactions: transactions as NativeBlock["transactions"],
});
const noDatabase = new Proxy(
  {},
  {
    get: () => {
      throw new Error("no database read expected");
    },
  },
) as Db;
const noClient = new Proxy(
  {},
  {
    get: () => {
      throw new Error("no RPC call expected");
    },
  },
) as PublicClient;
const count = <T>(p: Promise<T>) => p;

describe("native transfers in a block", () => {
  it("skips, without a lookup, zero values, contract creations and whatever does not look like a transaction", async () => {
    const to = `0x${"ab".repeat(20)}`;
    const from = `0x${"cd".repeat(20)}`;
    const hash = `0x${"ef".repeat(32)}`;
    const found = await nativeTransfers(
      noDatabase,
      noClient,
      "bsc",
      [
        block([
          { hash, from, to, value: "0x0" },
          { hash, from, to: null, value: "0x1" },
          { hash, from, to: "0x1234", value: "0x1" },
          { hash, from, to, value: `0x${"f".repeat(65)}` },
          { hash, from, to, value: 5 },
          null,
          "0xdeadbeef",
        ]),
      ],
      count,
    );
    expect(found).toEqual({ transfers: [], logs: [], ignored: 0 });
  });

  it("reads each block once, a few at a time, and fails (to be retried) on a block the node does not have", async () => {
    const asked: string[] = [];
    let inFlight = 0;
    let most = 0;
    const client = {
      request: async ({ params }: { params: [string, boolean] }) => {
        asked.push(params[0]);
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return params[0] === "0x15" ? null : { number: params[0], hash: `0x${"22".repeat(32)}`, timestamp: "0x10", transactions: [] };
      },
    } as unknown as PublicClient;
    const blocks = await readBlocks(client, 1n, 20n, count);
    expect(blocks.map((b) => b.number)).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i + 1)));
    expect(asked).toHaveLength(20);
    expect(most).toBeLessThanOrEqual(4);
    await expect(readBlocks(client, 20n, 22n, count)).rejects.toThrow("does not have block 21");
  });
});
