/**
 * Block headers for the balance poller: the hash and time of the block it reads at (a deposit it
 * records is keyed by them), and the last block mined at or before a time — the block of a
 * session's deadline, whose balance says what arrived in time. Headers are memoised for one poll.
 */
import { type Hex, hexToBigInt, numberToHex, type PublicClient } from "viem";
import type { RpcCall } from "./log-reader";

export interface BlockHeader {
  number: bigint;
  /** Lower case. */
  hash: string;
  timestamp: Date;
}

/** Steps back from the top when looking for a block at or before a time: ~1 hour of BSC at 0.45 s, 16 doublings. */
const MAX_DOUBLINGS = 16;

export class BlockHeaders {
  private readonly known = new Map<bigint, Promise<BlockHeader>>();

  constructor(
    private readonly client: PublicClient,
    private readonly call: RpcCall,
  ) {}

  /** The header of `number` (the node must have it: the caller asks for confirmed blocks only). */
  header(number: bigint): Promise<BlockHeader> {
    let found = this.known.get(number);
    if (!found) {
      found = this.read(number);
      found.catch(() => this.known.delete(number));
      this.known.set(number, found);
    }
    return found;
  }

  /**
   * The last block at or below `top` whose time is at or before `time` (null: none within reach).
   * Exponential steps back from `top`, then a binary search: ~2 log2(distance) headers, shared by
   * every deadline of the poll.
   */
  async lastAtOrBefore(time: Date, top: bigint): Promise<BlockHeader | null> {
    const at = time.getTime();
    const topHeader = await this.header(top);
    if (topHeader.timestamp.getTime() <= at) return topHeader;
    let high = top; // its time is after `time`
    let low: bigint | null = null;
    for (let step = 16n, i = 0; i < MAX_DOUBLINGS; step *= 2n, i++) {
      const candidate = top - step < 0n ? 0n : top - step;
      const header = await this.header(candidate);
      if (header.timestamp.getTime() <= at) {
        low = candidate;
        break;
      }
      high = candidate;
      if (candidate === 0n) return null;
    }
    if (low === null) return null;
    let found: bigint = low;
    while (high - found > 1n) {
      const middle: bigint = (found + high) / 2n;
      if ((await this.header(middle)).timestamp.getTime() <= at) found = middle;
      else high = middle;
    }
    return this.header(found);
  }

  private async read(number: bigint): Promise<BlockHeader> {
    const block = (await this.call(this.client.request({ method: "eth_getBlockByNumber", params: [numberToHex(number), false] }))) as {
      hash?: Hex;
      timestamp?: Hex;
    } | null;
    if (!block?.hash || !block.timestamp) throw new Error(`the node does not have block ${number}`);
    return { number, hash: block.hash.toLowerCase(), timestamp: new Date(Number(hexToBigInt(block.timestamp)) * 1000) };
  }
}
