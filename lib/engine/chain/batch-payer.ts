/**
 * BatchPayer (contracts/BatchPayer.sol): one contract per chain, at an address that follows from its
 * bytecode alone (CREATE2 through the deterministic deployer, no constructor arguments), through
 * which a withdrawal wallet pays a chunk of a payout batch in one transaction: approve(BatchPayer,
 * chunk total), then pay(token, recipients, amounts, gasPerTransfer) — or, for BNB itself, one
 * payNative(recipients, amounts, gasPerTransfer) carrying the chunk's total as value. Here: its address, its calls,
 * and how many items one transaction may carry.
 */

import { type Abi, type Address, encodeFunctionData, erc20Abi, getContractAddress, type Hex, keccak256, stringToHex } from "viem";
import batchPayerArtifact from "./contracts/batch-payer.json";
import { CREATE2_DEPLOYER } from "./sweep-addresses";

export const batchPayerAbi = batchPayerArtifact.abi as Abi;
/** v2: BNB itself (payNative) and a guard against calls from inside a payment; v1's address is never used again. */
export const PAYER_SALT: Hex = keccak256(stringToHex("bsc-pay/batch-payer/v2"));
export const BATCH_PAYER: Address = getContractAddress({
  opcode: "CREATE2",
  from: CREATE2_DEPLOYER,
  salt: PAYER_SALT,
  bytecode: batchPayerArtifact.bytecode as Hex,
});
/**
 * BatchPayer v1 (salt "bsc-pay/batch-payer/v1", before BNB payouts), as installs that paid out before
 * deployed it: chunks signed for it before an upgrade settle by its Paid events, and it stays a
 * service address (nothing is paid out to it).
 */
export const BATCH_PAYER_V1: Address = "0x2466a6ef272A0aD7Aa14118Ece555d3974019640";
export const BATCH_PAYERS: readonly Address[] = [BATCH_PAYER, BATCH_PAYER_V1];

/** The deployer's calldata: salt ‖ init code. */
export const BATCH_PAYER_DEPLOY_DATA: Hex = `${PAYER_SALT}${batchPayerArtifact.bytecode.slice(2)}` as Hex;
/** ~405k measured for v2 (1,632 bytes of code) on anvil: the limit leaves room, the unused part is not paid. */
export const BATCH_PAYER_DEPLOY_GAS = 550_000n;

/** The gas each transfer may burn at most: a hostile token fails its own item, never the chunk. */
export const PAYOUT_TRANSFER_GAS = 100_000n;
/** Per item on top of its transfer: the contract's reserve check (20k), the loop, the event, calldata. */
const PER_ITEM_OVERHEAD = 30_000n;
const BASE_GAS = 60_000n;
export const MAX_PAYOUT_ITEMS = 500;
export const APPROVE_GAS = 70_000n;

/** The gas limit of a pay transaction of `items` recipients: every transfer at its full allowance. */
export function payGasLimit(items: number): bigint {
  return BASE_GAS + BigInt(items) * (PAYOUT_TRANSFER_GAS + PER_ITEM_OVERHEAD);
}

/**
 * How many items one pay transaction carries: as many as half of a block's gas limit holds (so a
 * chunk still fits beside the block's other traffic), at most MAX_PAYOUT_ITEMS; `configured`
 * (PAYOUT_CHUNK_SIZE) lowers it.
 */
export function payoutChunkSize(blockGasLimit: bigint, configured: number | null): number {
  const fits = Number((blockGasLimit / 2n - BASE_GAS) / (PAYOUT_TRANSFER_GAS + PER_ITEM_OVERHEAD));
  const size = Math.max(1, Math.min(MAX_PAYOUT_ITEMS, fits));
  return configured === null ? size : Math.min(size, configured);
}

/**
 * The gas a batch of `items` is estimated to cost in gas units, chunked as it will be sent: per
 * chunk a pay (and, for a token, its approve), and BatchPayer's deployment when the chain lacks it.
 */
export function batchGasUnits(items: number, chunkSize: number, options: { native: boolean; deploy: boolean }): bigint {
  let units = options.deploy ? BATCH_PAYER_DEPLOY_GAS : 0n;
  for (let left = items; left > 0; left -= chunkSize) {
    units += payGasLimit(Math.min(left, chunkSize)) + (options.native ? 0n : APPROVE_GAS);
  }
  return units;
}

export function payCalldata(token: Address, items: readonly { to: Address; amount: bigint }[]): Hex {
  return encodeFunctionData({
    abi: batchPayerAbi,
    functionName: "pay",
    args: [token, items.map((i) => i.to), items.map((i) => i.amount), PAYOUT_TRANSFER_GAS],
  });
}

/** BNB itself: the transaction's value is the chunk's total; a recipient that refuses gets its amount sent back to the wallet. */
export function payNativeCalldata(items: readonly { to: Address; amount: bigint }[]): Hex {
  return encodeFunctionData({
    abi: batchPayerAbi,
    functionName: "payNative",
    args: [items.map((i) => i.to), items.map((i) => i.amount), PAYOUT_TRANSFER_GAS],
  });
}

export function approveCalldata(total: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [BATCH_PAYER, total] });
}
