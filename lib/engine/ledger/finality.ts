/**
 * When a receipt counts (docs/design.md §17, §21): a ledger row is final — mined or reverted, the
 * outcome business records take — only once its receipt's block is at the network's confirmation
 * depth (CONFIRMATIONS, or BSC's finalized block) AND is still the chain's block at that height.
 * A receipt read from a block a reorganisation removed is no outcome: the row stays pending and
 * the next read finds the receipt where it is now, or none (then the lifecycle goes on: re-send,
 * re-price, fill).
 */

import type { Hex, PublicClient, TransactionReceipt } from "viem";
import type { ChainTransaction } from "../../db/schema/engine";
import { confirmedBlock, type Finality } from "../chain/confirmations";
import { receiptOf } from "../chain/transactions";

export interface LandedReceipt {
  row: ChainTransaction;
  receipt: TransactionReceipt;
  /** At depth and still in the chain's block at its height. */
  final: boolean;
}

/** The receipt of one of `rows` (at most one can have one: they share a nonce), and whether it is final. */
export async function landedReceipt(client: PublicClient, finality: Finality, rows: ChainTransaction[]): Promise<LandedReceipt | null> {
  const checked = await Promise.all(rows.map(async (row) => ({ row, receipt: await receiptOf(client, row.txHash as Hex) })));
  const landed = checked.find((c) => c.receipt !== null);
  if (!landed?.receipt) return null;
  return { row: landed.row, receipt: landed.receipt, final: await receiptIsFinal(client, finality, landed.receipt) };
}

export async function receiptIsFinal(client: PublicClient, finality: Finality, receipt: TransactionReceipt): Promise<boolean> {
  const confirmedUpTo = await confirmedBlock(client, finality);
  if (receipt.blockNumber > confirmedUpTo) return false;
  // Read apart from the receipt (perhaps from another node): both must name the same block.
  const block = await client.getBlock({ blockNumber: receipt.blockNumber });
  return block.hash === receipt.blockHash;
}
