import { describe, expect, it } from "vitest";
import { waitForOwnerCall } from "@/lib/engine/forwarding/batched/sweeper-admin";
import { recheckTakenNonces } from "@/lib/engine/ledger/recheck";
import { waitForNonce } from "@/lib/ops/custody/recover-in-flight";
import { useLateReceipts } from "../helpers/late-receipt";

/**
 * The operator's commands meet the same late receipt as forwards and batches (late-receipt-forwards):
 * a nonce judged "taken by a transaction we did not sign" is read again for a day. `recover` must
 * not report its transfer replaced, nor `sweeper pause|resume|rotate-operator` say "run the command
 * again", while those re-reads last: a late receipt may yet show the transfer (or owner call) mined.
 * The nonce's transaction is real (mined on anvil); only the ledger's "taken" verdict is written.
 */
const { db, takenRow } = useLateReceipts();

describe("recover meets a late receipt", () => {
  it("reports the transfer as still being checked (never replaced) while the re-reads last, then mined", async () => {
    const row = await takenRow("recovery", "deposit", "due");
    expect(await waitForNonce(db(), row)).toBe("rechecking");
    expect(await recheckTakenNonces(db())).toBe(1);
    expect(await waitForNonce(db(), row)).toMatchObject({ id: row.id, status: "mined" });
  });

  it("reports it replaced once the re-reads are over", async () => {
    const row = await takenRow("recovery", "deposit", "over");
    expect(await waitForNonce(db(), row)).toMatchObject({ id: row.id, status: "replaced" });
  });
});

describe("the sweeper owner's call meets a late receipt", () => {
  it("says it is still being checked (not 'run the command again') while the re-reads last, then returns the mined hash", async () => {
    const row = await takenRow("sweeper_admin", "sweeper_owner", "due");
    const waited = waitForOwnerCall(db(), row);
    await expect(waited).rejects.toThrow(/still being checked/);
    await expect(waited).rejects.not.toThrow(/command again/);
    expect(await recheckTakenNonces(db())).toBe(1);
    expect(await waitForOwnerCall(db(), row)).toBe(row.txHash);
  });

  it("says it was not mined once the re-reads are over", async () => {
    const row = await takenRow("sweeper_admin", "sweeper_owner", "over");
    await expect(waitForOwnerCall(db(), row)).rejects.toThrow(/was not mined; run sweeper status, then the command again/);
  });
});
