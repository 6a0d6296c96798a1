import { MethodNotFoundRpcError, type PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { type NativeBlock, nativeTransfers, readBlocks, succeededHashes } from "@/lib/engine/scanner/native-reader";

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
const noLookup = async () => {
  throw new Error("no deposit-address lookup expected");
};
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
      noLookup,
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

describe("receipts of the matches", () => {
  const candidate = (i: number, number = 9n) => ({
    block: { ...block([]), number },
    hash: `0x${i.toString(16).padStart(64, "0")}`,
    from: `0x${"cd".repeat(20)}`,
    to: `0x${"ab".repeat(20)}`,
    amount: 1n,
  });
  const receiptOf = (hash: string) => ({ transactionHash: hash, status: BigInt(hash) % 2n === 0n ? "0x1" : "0x0" });

  it("asks a few matches' receipts one by one, more in one eth_getBlockReceipts, and keeps the succeeded", async () => {
    const methods: string[] = [];
    const client = {
      request: async ({ method, params }: { method: string; params: [string] }) => {
        methods.push(method);
        if (method === "eth_getBlockReceipts") return Array.from({ length: 10 }, (_, i) => receiptOf(candidate(i).hash));
        return receiptOf(params[0]);
      },
    } as unknown as PublicClient;
    const few = await succeededHashes(client, [candidate(1, 5n), candidate(2, 5n)], count);
    expect([...few]).toEqual([candidate(2).hash]);
    expect(methods).toEqual(["eth_getTransactionReceipt", "eth_getTransactionReceipt"]);
    methods.length = 0;
    const many = await succeededHashes(
      client,
      Array.from({ length: 10 }, (_, i) => candidate(i)),
      count,
    );
    expect(many.size).toBe(5);
    expect(methods).toEqual(["eth_getBlockReceipts"]);
  });

  it("falls back to one receipt per match on a node without eth_getBlockReceipts", async () => {
    const methods: string[] = [];
    const client = {
      request: async ({ method, params }: { method: string; params: [string] }) => {
        methods.push(method);
        if (method === "eth_getBlockReceipts")
          throw new MethodNotFoundRpcError(new Error("the method eth_getBlockReceipts does not exist"));
        return receiptOf(params[0]);
      },
    } as unknown as PublicClient;
    const found = await succeededHashes(
      client,
      Array.from({ length: 6 }, (_, i) => candidate(i)),
      count,
    );
    expect(found.size).toBe(3);
    expect(methods.filter((m) => m === "eth_getTransactionReceipt")).toHaveLength(6);
  });
});
