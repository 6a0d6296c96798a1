/**
 * An ERC-20 Transfer log as a node returns it, and its strict decoding: exactly three topics and a
 * 32-byte amount, or the log is not a Transfer we record (the scanner quarantines it).
 */
import { type Hex, hexToBigInt } from "viem";
import { isNativeToken, NATIVE_LOG_INDEX } from "../chain/native";

/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

export interface RawLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  blockTimestamp?: Hex;
  transactionHash: Hex;
  logIndex: Hex;
  removed?: boolean;
}

const WORD = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS_WORD = /^0x0{24}[0-9a-fA-F]{40}$/;

/**
 * Strict ERC-20 Transfer decoding: exactly three topics (signature, from, to) holding addresses,
 * and exactly 32 bytes of data (the amount). Any contract can emit a log with the Transfer topic
 * and whatever else it likes; anything that does not fit is not a payment.
 */
export function decodeTransferLog(log: RawLog): { ok: true; from: Hex; to: Hex; amount: bigint } | { ok: false; reason: string } {
  if (log.topics.length !== 3)
    return { ok: false, reason: `malformed Transfer log: ${log.topics.length} topics, an ERC-20 Transfer has 3` };
  const [, from, to] = log.topics as [Hex, Hex, Hex];
  if (!ADDRESS_WORD.test(from) || !ADDRESS_WORD.test(to)) return { ok: false, reason: "malformed Transfer log: a topic is not an address" };
  if (!WORD.test(log.data)) {
    const bytes = Math.max(0, (log.data.length - 2) / 2);
    return { ok: false, reason: `malformed Transfer log: ${bytes} bytes of data, an ERC-20 Transfer has 32` };
  }
  return { ok: true, from: `0x${from.slice(26)}`, to: `0x${to.slice(26)}`, amount: hexToBigInt(log.data) };
}

/**
 * A log's index as deposits and the quarantine key it. A native transfer has no log: the scanner
 * stands one in (native-reader.ts) at the native address, whose index is NATIVE_LOG_INDEX.
 */
export function logIndexOf(log: RawLog): number {
  return isNativeToken(log.address) ? NATIVE_LOG_INDEX : Number(hexToBigInt(log.logIndex));
}
