import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { type ChainTransaction, sweepBatches } from "@/lib/db/schema";
import { settleTankTransaction } from "@/lib/engine/forwarding/batched/tank-transactions";
import { forwardTransactionOutcome } from "@/lib/engine/forwarding/classic/forward-ledger";
import { recheckTakenNonces } from "@/lib/engine/ledger/recheck";
import { useLateReceipts } from "../helpers/late-receipt";

/**
 * A nonce settled as "taken by a transaction we did not sign" may only have had its receipt hidden
 * by a receipts node behind (docs/design.md §17); its receipts are read again for a day. A classic
 * forward's transaction and a sweep batch wait while they are: planning the forward again (or
 * giving a batch's forwards back) on the first "taken" would act on a loss a late receipt undoes.
 * The nonce's transaction here is real (mined on anvil); only the ledger's earlier "taken" verdict
 * is written as the settler would have written it.
 */
const { db, takenRow } = useLateReceipts();

async function batchFor(row: ChainTransaction) {
  const [batch] = await db()
    .insert(sweepBatches)
    .values({
      network: "bsc",
      kind: "sweep",
      fromAddress: row.wallet,
      nonce: row.nonce,
      gasLimit: row.gasLimit,
      gasPrice: row.gasPrice,
      chainTxId: row.id,
      txHash: row.txHash as Hex,
      status: "sent",
    })
    .returning();
  return batch!;
}

describe("a late receipt reaches classic forwards", () => {
  it("waits (never 'lost') while the nonce's receipts are read again, and is done once the re-read finds ours", async () => {
    const row = await takenRow("sweep", "deposit", "due");
    expect(await forwardTransactionOutcome(db(), row.id)).toEqual({ state: "waiting" });
    expect(await recheckTakenNonces(db())).toBe(1);
    expect(await forwardTransactionOutcome(db(), row.id)).toMatchObject({ state: "done", success: true, winner: { id: row.id } });
  });

  it("is lost once the re-reads are over with no receipt of ours", async () => {
    const row = await takenRow("sweep", "deposit", "over");
    expect(await forwardTransactionOutcome(db(), row.id)).toEqual({ state: "lost" });
  });
});

describe("a late receipt reaches sweep batches", () => {
  it("keeps the batch sent (its forwards not given back) while the re-reads last, then mined", async () => {
    const row = await takenRow("batch", "gas_tank", "due");
    const batch = await batchFor(row);
    expect(await settleTankTransaction(db(), batch)).toEqual({ status: "sent" });
    expect(await recheckTakenNonces(db())).toBe(1);
    expect(await settleTankTransaction(db(), batch)).toMatchObject({ status: "mined", winner: { id: row.id } });
  });

  it("is replaced once the re-reads are over", async () => {
    const batch = await batchFor(await takenRow("batch", "gas_tank", "over"));
    expect(await settleTankTransaction(db(), batch)).toEqual({ status: "replaced", refused: false });
  });
});
