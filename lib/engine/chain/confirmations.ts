/**
 * When a transaction counts as confirmed on a network (CONFIRMATIONS, docs/design.md §20): after a
 * number of blocks counted so that 1 is the block that holds it (2: that block and one more on top,
 * …), or once BSC finalizes its block (`CONFIRMATIONS=finalized`: fast finality, normally two
 * blocks later, and never reorganised). CONFIRMATIONS=0 reads like 1: a log can only be read once
 * its block exists. One rule for payments (the scanner reads up to the confirmed block) and for
 * withdrawals (final once their block is confirmed).
 */
import type { PublicClient } from "viem";
import type { NetworkConfig } from "../../base/config";

export type Finality = NetworkConfig["finality"];

/** What the checkout page shows as the confirmations a payment waits for (finality: the block and BSC's usual two more). */
export const FINALIZED_DISPLAY_CONFIRMATIONS = 3;

/** The highest block whose transactions count as confirmed, given the head (blocks) or the node's finalized block. */
export async function confirmedBlock(client: PublicClient, finality: Finality, head?: bigint): Promise<bigint> {
  if (finality.kind === "finalized") {
    const block = await client.getBlock({ blockTag: "finalized" });
    return block.number;
  }
  const latest = head ?? (await client.getBlockNumber({ cacheTime: 0 }));
  return confirmedUnder(latest, finality.blocks);
}

/** The confirmed block under `head` when `blocks` blocks confirm (counting the one that holds it). */
export function confirmedUnder(head: bigint, blocks: number): bigint {
  return head - BigInt(Math.max(1, blocks) - 1);
}

/** How many confirmations a page shows as needed. */
export function displayedConfirmations(finality: Finality): number {
  return finality.kind === "finalized" ? FINALIZED_DISPLAY_CONFIRMATIONS : Math.max(1, finality.blocks);
}
