/**
 * The tokens a wallet's payout batches (lib/domain/payouts) will still take: their items not
 * yet sent, or sent at a nonce not yet mined; batches awaiting approval included, so an approval
 * does not find the money gone. Withdrawals and new batches hold these back (reserve-wallet.ts).
 * Here, below both, because payout batches import transfers and not the other way round.
 */
import { and, eq, gte, inArray, or, sum } from "drizzle-orm";
import type { Db } from "../../db";
import { payoutBatches, payoutItems } from "../../db/schema";

export async function openPayoutItemsTotal(tx: Db, network: string, from: string, tokenId: number, chainCount: number): Promise<bigint> {
  const [row] = await tx
    .select({ total: sum(payoutItems.amount) })
    .from(payoutItems)
    .innerJoin(payoutBatches, eq(payoutBatches.id, payoutItems.batchId))
    .where(
      and(
        eq(payoutBatches.network, network),
        eq(payoutBatches.fromAddress, from),
        eq(payoutBatches.tokenId, tokenId),
        inArray(payoutBatches.status, ["awaiting_approval", "pending", "sending"]),
        or(eq(payoutItems.status, "pending"), and(eq(payoutItems.status, "sending"), gte(payoutItems.nonce, chainCount))),
      ),
    );
  return BigInt(row?.total ?? 0);
}
