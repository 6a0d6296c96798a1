/**
 * BNB itself sent to deposit addresses: a native transfer emits no log, so the scanner
 * reads the blocks — one `eth_getBlockByNumber(n, true)` per block, a few at a time — and keeps the
 * transactions whose recipient is a deposit address, with a value, not sent by this gateway's own
 * keys (the gas tank's top-ups in classic mode are not payments) nor by a deposit address, and that
 * succeeded (a reverted transaction moves no value): receipts only for blocks with a match — one
 * `eth_getTransactionReceipt` per match when a block has a few, else one `eth_getBlockReceipts`
 * (per match after all on a node that lacks it).
 * The cost per block is one call whatever the number of open sessions; it runs only while the
 * network's catalogue BNB row is enabled and a merchant there accepts BNB.
 *
 * Not seen here: BNB a contract sends with an internal call (the transaction's `to` is the
 * contract): the balance poller finds it (native-balance-poll.ts), counting what this read recorded.
 */
import { getAddress, type Hex, hexToBigInt, numberToHex, type PublicClient } from "viem";
import type { Db } from "../../db";
import { type DepositAddressOwner, type DepositOwners, depositTopicOf } from "../chain/deposit-addresses";
import { NATIVE_LOG_INDEX, NATIVE_TOKEN } from "../chain/native";
import { classifyRpcError } from "../chain/rpc-errors";
import { serviceKeyAddresses } from "../chain/service-addresses";
import type { RpcCall } from "./log-reader";
import type { ObservedTransfer } from "./scanner";
import type { RawLog } from "./transfer-log";

/** Blocks a poll reads when native BNB is scanned: catch-up stays bounded (50 × 0.45 s ≈ 22 s of chain). */
export const NATIVE_MAX_RANGE = 50;
/** Blocks asked at once. */
const BLOCK_CONCURRENCY = 4;
/** Up to this many matches in a block, their receipts one by one; beyond, the block's receipts in one call. */
const RECEIPTS_ONE_BY_ONE = 3;

interface RawTransaction {
  hash?: unknown;
  from?: unknown;
  to?: unknown;
  value?: unknown;
}
interface RawBlock {
  number: Hex;
  hash: Hex;
  timestamp: Hex;
  transactions: RawTransaction[];
}
interface RawReceipt {
  transactionHash?: unknown;
  status?: unknown;
}

export interface NativeBlock {
  number: bigint;
  hash: string;
  timestamp: Date;
  transactions: RawTransaction[];
}

/** The blocks [from, to] with their transactions, BLOCK_CONCURRENCY at a time; a block the node does not have yet throws. */
export async function readBlocks(client: PublicClient, from: bigint, to: bigint, call: RpcCall): Promise<NativeBlock[]> {
  const numbers: bigint[] = [];
  for (let n = from; n <= to; n++) numbers.push(n);
  const blocks: NativeBlock[] = new Array(numbers.length);
  let next = 0;
  const worker = async () => {
    while (next < numbers.length) {
      const i = next++;
      // biome-ignore lint/style/noNonNullAssertion: i < numbers.length
      const number = numbers[i]!;
      const block = (await call(
        client.request({ method: "eth_getBlockByNumber", params: [numberToHex(number), true] }),
      )) as unknown as RawBlock | null;
      if (!block) throw new Error(`the node does not have block ${number} yet`);
      blocks[i] = {
        number,
        hash: String(block.hash).toLowerCase(),
        timestamp: new Date(Number(hexToBigInt(block.timestamp)) * 1000),
        transactions: Array.isArray(block.transactions) ? block.transactions : [],
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(BLOCK_CONCURRENCY, numbers.length) }, worker));
  return blocks;
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;

export interface Candidate {
  block: NativeBlock;
  hash: string;
  from: string;
  to: string;
  amount: bigint;
}

/**
 * The native transfers into deposit addresses in `blocks`, ready for the recorder, each with a
 * stand-in log (the quarantine keys by it); `ignored` counts the matches that are not payments
 * (reverted, or sent by this gateway's own addresses). Zero-value transactions are never matched.
 */
export async function nativeTransfers(
  db: Db,
  client: PublicClient,
  network: string,
  blocks: NativeBlock[],
  call: RpcCall,
  ownersOfDepositTopics: DepositOwners,
): Promise<{ transfers: ObservedTransfer[]; logs: RawLog[]; ignored: number }> {
  // A transaction a node answers with is consensus-valid; anything that does not look it is skipped, never thrown on.
  const candidates: Candidate[] = [];
  for (const block of blocks) {
    for (const tx of block.transactions) {
      if (typeof tx !== "object" || tx === null) continue;
      const { hash, from, to, value } = tx;
      if (typeof to !== "string" || typeof value !== "string" || typeof from !== "string" || typeof hash !== "string") continue;
      if (!ADDRESS.test(to) || !ADDRESS.test(from) || !HASH.test(hash) || !QUANTITY.test(value)) continue;
      const amount = hexToBigInt(value as Hex);
      if (amount === 0n) continue;
      candidates.push({ block, hash: hash.toLowerCase(), from: from.toLowerCase(), to: to.toLowerCase(), amount });
    }
  }
  if (candidates.length === 0) return { transfers: [], logs: [], ignored: 0 };

  const owners = await ownersOfDepositTopics(db, network, [...new Set(candidates.map((c) => depositTopicOf(c.to)))]);
  const matched = candidates.filter((c) => owners.has(depositTopicOf(c.to)));
  if (matched.length === 0) return { transfers: [], logs: [], ignored: 0 };

  // Our own senders: the keys' addresses (gas tank generations, sweeper, sweep contracts) and deposit addresses.
  const service = serviceKeyAddresses();
  const depositSenders = await ownersOfDepositTopics(db, network, [...new Set(matched.map((c) => depositTopicOf(c.from)))]);
  const fromOutside = matched.filter((c) => !service.has(c.from) && !depositSenders.has(depositTopicOf(c.from)));
  const succeeded = await succeededHashes(client, fromOutside, call);
  const paid = fromOutside.filter((c) => succeeded.has(c.hash));

  const transfers = paid.map((c): ObservedTransfer => {
    const owner = owners.get(depositTopicOf(c.to)) as DepositAddressOwner;
    return {
      network,
      txHash: c.hash,
      logIndex: NATIVE_LOG_INDEX,
      blockNumber: c.block.number,
      blockHash: c.block.hash,
      blockTimestamp: c.block.timestamp,
      tokenContract: NATIVE_TOKEN,
      fromAddress: getAddress(c.from),
      toAddress: owner.depositAddress,
      amount: c.amount,
      sessionId: owner.sessionId,
    };
  });
  const logs = paid.map(
    (c): RawLog => ({
      address: NATIVE_TOKEN,
      topics: [],
      data: numberToHex(c.amount),
      blockNumber: numberToHex(c.block.number),
      blockHash: c.block.hash as Hex,
      transactionHash: c.hash as Hex,
      logIndex: "0x0",
    }),
  );
  return { transfers, logs, ignored: matched.length - paid.length };
}

/** The hashes among `candidates` whose transaction succeeded: per block, a few receipts one by one or the block's receipts at once. */
export async function succeededHashes(client: PublicClient, candidates: Candidate[], call: RpcCall): Promise<Set<string>> {
  const byBlock = new Map<bigint, Candidate[]>();
  for (const c of candidates) {
    const list = byBlock.get(c.block.number);
    if (list) list.push(c);
    else byBlock.set(c.block.number, [c]);
  }
  const ok = new Set<string>();
  const succeeded = (r: RawReceipt | null) => {
    if (r && r.status === "0x1" && typeof r.transactionHash === "string") ok.add(r.transactionHash.toLowerCase());
  };
  const oneByOne = async (number: bigint, matches: Candidate[]) => {
    for (const m of matches) {
      const receipt = (await call(
        client.request({ method: "eth_getTransactionReceipt", params: [m.hash as Hex] }),
      )) as unknown as RawReceipt | null;
      if (!receipt) throw new Error(`the node has no receipt for ${m.hash} in block ${number}`);
      succeeded(receipt);
    }
  };
  await Promise.all(
    [...byBlock].map(async ([number, matches]) => {
      if (matches.length <= RECEIPTS_ONE_BY_ONE) return oneByOne(number, matches);
      let receipts: RawReceipt[] | null;
      try {
        receipts = (await call(client.request({ method: "eth_getBlockReceipts", params: [numberToHex(number)] } as never))) as unknown as
          | RawReceipt[]
          | null;
      } catch (error) {
        // A node without the method (a permanent refusal): each match's receipt instead, never a stuck scan.
        if (classifyRpcError(error) !== "rejected") throw error;
        return oneByOne(number, matches);
      }
      if (!Array.isArray(receipts)) throw new Error(`the node has no receipts for block ${number}`);
      for (const r of receipts) succeeded(r);
    }),
  );
  return ok;
}
