import { randomBytes, randomUUID } from "node:crypto";
import {
  type Abi,
  type Address,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  parseEther,
  parseUnits,
  publicActions,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { createUser } from "@/lib/accounts/users/create-user";
import { parseConfig, setConfig } from "@/lib/base/config";
import { setDatabase } from "@/lib/db";
import { openPostgres } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { paymentSessions, tokens } from "@/lib/db/schema";
import { scanPorts } from "@/lib/domain/payments/engine-ports";
import { activatePlan } from "@/lib/domain/plans/activate-plan";
import multicall3 from "@/lib/engine/chain/contracts/multicall3.json";
import { MULTICALL3_ADDRESS } from "@/lib/engine/chain/multicall";
import { NATIVE_TOKEN } from "@/lib/engine/chain/native";
import { startAnvil } from "@/lib/engine/dev/anvil";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { scanOnce } from "@/lib/engine/scanner/scanner";
import { createBenchDatabase } from "./database";
import { measurePoller, type PollerFigures, printPoller } from "./native-balance-poll";
import { BENCH_MNEMONIC } from "./server";

/**
 * Native BNB detection, on anvil with a mainnet-sized block (300 transactions,
 * half with calldata) and 10,000 open sessions that offered BNB:
 *  - the scan as built: RPC calls for a poll over blocks with and without payments;
 *  - the balance poller (BNB contracts send with an internal call): RPC calls, bytes and
 *    time of one poll over the 10,000 addresses, per block and per day at one poll every
 *    NATIVE_POLL_EVERY_BLOCKS blocks; and a poll in which 50 addresses past their deadline hold
 *    BNB nobody recorded (each then read again at its deadline's block);
 *  - the two ways compared: (a) eth_getBlockByNumber(n, true) — latency and response bytes per
 *    block; (b) one Multicall3 getEthBalance batch over the 10,000 deposit addresses — latency,
 *    request/response bytes and gas per block.
 * `npm run bench:native` prints both; `bench:engine` prints the first (its own chain and database).
 */

const SESSIONS = Number(process.env.BENCH_NATIVE_SESSIONS ?? 10_000);
const BLOCK_TXS = 300;
const PAYING = 10;
const REPEAT = 10;

export interface NativeScanFigures {
  sessions: number;
  blockTxs: number;
  quiet: { blocks: number; rpcCalls: number; ms: number };
  busy: { blocks: number; rpcCalls: number; ms: number; transfers: number };
  poller: PollerFigures;
  compare?: {
    block: { ms: number; bytes: number };
    multicall: { ms: number; requestBytes: number; responseBytes: number; gas: bigint; calls: number; error?: string };
  };
}

const multicallAbi = [
  {
    type: "function",
    name: "aggregate3",
    stateMutability: "payable",
    inputs: [
      {
        name: "calls",
        type: "tuple[]",
        components: [
          { name: "target", type: "address" },
          { name: "allowFailure", type: "bool" },
          { name: "callData", type: "bytes" },
        ],
      },
    ],
    outputs: [
      {
        name: "returnData",
        type: "tuple[]",
        components: [
          { name: "success", type: "bool" },
          { name: "returnData", type: "bytes" },
        ],
      },
    ],
  },
  {
    type: "function",
    name: "getEthBalance",
    stateMutability: "view",
    inputs: [{ name: "addr", type: "address" }],
    outputs: [{ name: "balance", type: "uint256" }],
  },
] as const satisfies Abi;

async function rpc(
  url: string,
  method: string,
  params: unknown[],
): Promise<{ ms: number; requestBytes: number; bytes: number; body: { result?: unknown; error?: { message: string } } }> {
  const request = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
  const started = performance.now();
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: request });
  const text = await res.text();
  return { ms: performance.now() - started, requestBytes: request.length, bytes: text.length, body: JSON.parse(text) };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export async function measureNativeScan(options: { compare?: boolean } = {}): Promise<NativeScanFigures> {
  const database = await createBenchDatabase("native");
  const anvil = await startAnvil({ chainId: 56 });
  const handle = openPostgres(database.url, { max: 5 });
  try {
    await migrate(handle.db);
    setDatabase(handle);
    setConfig(
      parseConfig({
        NODE_ENV: "production",
        BSC_RPC_URL: anvil.url,
        MASTER_MNEMONIC: BENCH_MNEMONIC,
        NEXTAUTH_SECRET: "benchmark-secret-0123456789abcdef",
        CONFIRMATIONS: "1",
        LOG_LEVEL: "silent",
      }),
    );
    const db = handle.db;
    const chain = createTestClient({ mode: "anvil", transport: http(anvil.url) }).extend(publicActions);
    await chain.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall3.deployedBytecode as Hex });

    // A merchant who accepts BNB (migration 0033's catalogue row), and SESSIONS open sessions in it.
    const user = await createUser(db, { email: "native@example.com", password: "benchmark password" });
    await activatePlan(db, user.id, "enterprise");
    const [bnb] = await db
      .insert(tokens)
      .values({ userId: user.id, network: "bsc", contractAddress: NATIVE_TOKEN, symbol: "BNB", name: "BNB", decimals: 18 })
      .returning();
    const { record: key } = await createApiKey(db, user.id, "bench");
    const addresses: Address[] = [];
    for (let done = 0; done < SESSIONS; ) {
      const batch = Math.min(5000, SESSIONS - done);
      const rows = Array.from({ length: batch }, (_, i) => {
        const address = `0x${randomBytes(20).toString("hex")}` as Address;
        addresses.push(address);
        return {
          id: randomUUID(),
          userId: user.id,
          apiKeyId: key.id,
          tokenId: bnb!.id,
          network: "bsc",
          chainId: 56,
          depositIndex: 1_000_000 + done + i,
          depositAddress: address,
          depositTopic: address.slice(2).toLowerCase().padStart(64, "0"),
          amount: parseEther("1"),
          forwardTo: address,
          expiresAt: new Date(Date.now() + 3_600_000),
        };
      });
      await db.insert(paymentSessions).values(rows);
      done += batch;
    }
    const poll = () => scanOnce(db, "bsc", scanPorts);
    await poll(); // the cursor starts at the head

    // Ten empty blocks: the quiet case.
    await chain.mine({ blocks: 10 });
    let started = performance.now();
    const quietResult = await poll();
    const quiet = { blocks: 10, rpcCalls: quietResult!.rpcCalls, ms: Math.round(performance.now() - started) };

    // One mainnet-sized block: BLOCK_TXS transactions, half with 200 bytes of calldata, PAYING of them into deposit addresses.
    const sender = privateKeyToAccount(ANVIL_DEFAULT_KEYS[2] as Hex);
    const wallet = createWalletClient({
      account: sender,
      chain: {
        id: 56,
        name: "bench",
        nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
        rpcUrls: { default: { http: [anvil.url] } },
      },
      transport: http(anvil.url),
    });
    await chain.setAutomine(false);
    let nonce = await chain.getTransactionCount({ address: sender.address });
    for (let i = 0; i < BLOCK_TXS; i++) {
      const paying = i % (BLOCK_TXS / PAYING) === 0;
      const to = paying ? (addresses[i] as Address) : privateKeyToAccount(generatePrivateKey()).address;
      const data = !paying && i % 2 === 1 ? (`0x${randomBytes(200).toString("hex")}` as Hex) : undefined;
      await wallet.sendTransaction({
        to,
        value: paying ? parseEther("1") : 1n,
        data,
        nonce: nonce++,
        gas: 50_000n,
        gasPrice: parseUnits("1", 9),
      });
    }
    await chain.mine({ blocks: 1 });
    await chain.setAutomine(true);
    const full = await chain.getBlock();
    await chain.mine({ blocks: 9 });
    started = performance.now();
    const busyResult = await poll();
    const busy = {
      blocks: 10,
      rpcCalls: busyResult!.rpcCalls,
      ms: Math.round(performance.now() - started),
      transfers: busyResult!.transfers,
    };
    // The balance poller over the same addresses (bench/native-balance-poll.ts).
    const poller = await measurePoller(db, chain, addresses, poll);
    const figures: NativeScanFigures = {
      sessions: SESSIONS,
      blockTxs: full.transactions.length,
      quiet,
      busy,
      poller,
    };

    if (options.compare) {
      const blockRuns = [];
      for (let i = 0; i < REPEAT; i++)
        blockRuns.push(await rpc(anvil.url, "eth_getBlockByNumber", [`0x${full.number.toString(16)}`, true]));
      // One batch over every address if the node takes it; else batches of 1,000 (a request of
      // 10,000 is ~3 MB, more than nodes accept): the figures are then the sum over the batches.
      const batchOf = (list: Address[]) => ({
        to: MULTICALL3_ADDRESS,
        gas: "0x3b9aca00",
        data: encodeFunctionData({
          abi: multicallAbi,
          functionName: "aggregate3",
          args: [
            list.map((a) => ({
              target: MULTICALL3_ADDRESS,
              allowFailure: false,
              callData: encodeFunctionData({ abi: multicallAbi, functionName: "getEthBalance", args: [a] }),
            })),
          ],
        }),
      });
      const blockTag = `0x${full.number.toString(16)}`;
      const measure = async (size: number) => {
        const batches: Address[][] = [];
        for (let i = 0; i < addresses.length; i += size) batches.push(addresses.slice(i, i + size));
        const runs: { ms: number; requestBytes: number; bytes: number }[] = [];
        for (let r = 0; r < REPEAT; r++) {
          let ms = 0;
          let requestBytes = 0;
          let bytes = 0;
          for (const batch of batches) {
            const res = await rpc(anvil.url, "eth_call", [batchOf(batch), blockTag]);
            if (res.body.error) throw new Error(res.body.error.message);
            ms += res.ms;
            requestBytes += res.requestBytes;
            bytes += res.bytes;
          }
          runs.push({ ms, requestBytes, bytes });
        }
        let gas = 0n;
        for (const batch of batches) {
          const { gas: _cap, ...call } = batchOf(batch);
          const estimate = await rpc(anvil.url, "eth_estimateGas", [call, blockTag]);
          if (typeof estimate.body.result !== "string") throw new Error(estimate.body.error?.message ?? "no estimate");
          gas += BigInt(estimate.body.result);
        }
        return {
          ms: median(runs.map((r) => r.ms)),
          requestBytes: runs[0]!.requestBytes,
          responseBytes: runs[0]!.bytes,
          gas,
          calls: batches.length,
        };
      };
      let multicall: Awaited<ReturnType<typeof measure>> & { error?: string };
      try {
        multicall = await measure(addresses.length);
      } catch (error) {
        multicall = {
          ...(await measure(1000)),
          error: `one batch of ${addresses.length} refused: ${String((error as Error).message).slice(0, 80)}`,
        };
      }
      figures.compare = { block: { ms: median(blockRuns.map((r) => r.ms)), bytes: blockRuns[0]!.bytes }, multicall };
    }
    return figures;
  } finally {
    await handle.close();
    await anvil.stop();
    await database.drop();
  }
}

export function printNativeScan(f: NativeScanFigures): void {
  console.log(
    `\n(g) native BNB scan, ${f.sessions.toLocaleString("en")} open sessions that offered BNB (one eth_getBlockByNumber per block)`,
  );
  console.log(
    `    ${f.quiet.blocks} empty blocks: ${f.quiet.rpcCalls} RPC calls (getBlockNumber + getLogs + ${f.quiet.blocks} blocks), ${f.quiet.ms} ms`,
  );
  console.log(
    `    ${f.busy.blocks} blocks, one of ${f.blockTxs} transactions with ${f.busy.transfers} payments: ${f.busy.rpcCalls} RPC calls (+1 eth_getBlockReceipts for the block with payments), ${f.busy.ms} ms`,
  );
  printPoller(f.poller);
}

export function printNativeComparison(f: NativeScanFigures): void {
  const c = f.compare;
  if (!c) return;
  const perDay = 192_000;
  const mb = (bytes: number) => (bytes / 1e6).toFixed(2);
  console.log(`\n    per block of ${f.blockTxs} transactions, median of ${REPEAT}:`);
  console.log(
    `    (a) eth_getBlockByNumber(n, true): ${c.block.ms.toFixed(1)} ms, ${c.block.bytes.toLocaleString("en")} bytes` +
      ` → per day (192,000 blocks): 192,000 calls, ${((c.block.bytes * perDay) / 1e9).toFixed(1)} GB`,
  );
  console.log(
    `    (b) Multicall3 getEthBalance × ${f.sessions.toLocaleString("en")}: ${c.multicall.calls} eth_call, ${c.multicall.ms.toFixed(1)} ms, request ${mb(c.multicall.requestBytes)} MB, response ${mb(c.multicall.responseBytes)} MB, ${c.multicall.gas.toLocaleString("en")} gas` +
      `${c.multicall.error ? ` (${c.multicall.error})` : ""}` +
      ` → per day: ${(c.multicall.calls * perDay).toLocaleString("en")} calls, ${(((c.multicall.requestBytes + c.multicall.responseBytes) * perDay) / 1e9).toFixed(1)} GB, ${((Number(c.multicall.gas) * perDay) / 1e12).toFixed(1)} T gas of node work`,
  );
}

if (process.argv[1]?.endsWith("native-bnb.ts")) {
  measureNativeScan({ compare: true }).then(
    (f) => {
      printNativeScan(f);
      printNativeComparison(f);
      process.exit(0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
