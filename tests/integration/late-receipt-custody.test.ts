import { type Address, createWalletClient, http } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { waitForNonce } from "@/lib/custody/recover-in-flight";
import { type ChainTransaction, chainTransactions } from "@/lib/db/schema";
import { waitForOwnerCall } from "@/lib/forwarding/batched/sweeper-admin";
import { recheckTakenNonces } from "@/lib/ledger/recheck";
import { chainAt, payer, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";

/**
 * The operator's commands meet the same late receipt as forwards and batches (late-receipt-forwards):
 * a nonce judged "taken by a transaction we did not sign" is read again for a day. `recover` must
 * not report its transfer replaced, nor `sweeper pause|resume|rotate-operator` say "run the command
 * again", while those re-reads last: a late receipt may yet show the transfer (or owner call) mined.
 * The nonce's transaction is real (mined on anvil); only the ledger's "taken" verdict is written.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const SINK = "0x000000000000000000000000000000000000dEaD" as Address;

beforeAll(() => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
});

/** A transaction really mined by `payer`, as the ledger row a receipts node hid: replaced by none, re-reads due or over. */
async function takenRow(kind: "recovery" | "sweeper_admin", rereads: "due" | "over"): Promise<ChainTransaction> {
  const wallet = createWalletClient({ account: payer, chain: await chainAt(chain().url), transport: http(chain().url) });
  const hash = await wallet.sendTransaction({ to: SINK, value: 1n });
  const tx = await chain().client.getTransaction({ hash });
  await chain().client.mine({ blocks: 2 });
  const now = new Date();
  const [row] = await db()
    .insert(chainTransactions)
    .values({
      network: "bsc",
      walletRole: kind === "recovery" ? "deposit" : "sweeper_owner",
      walletIndex: 0,
      wallet: payer.address,
      nonce: tx.nonce,
      kind,
      toAddress: SINK,
      value: 1n,
      gasLimit: tx.gas,
      gasPrice: tx.gasPrice ?? 1n,
      txHash: hash,
      status: "replaced",
      replacedById: null,
      settledAt: now,
      receiptRecheckAt: rereads === "due" ? new Date(now.getTime() - 1_000) : null,
    })
    .returning();
  return row!;
}

describe("recover meets a late receipt", () => {
  it("reports the transfer as still being checked (never replaced) while the re-reads last, then mined", async () => {
    const row = await takenRow("recovery", "due");
    expect(await waitForNonce(db(), row)).toBe("rechecking");
    expect(await recheckTakenNonces(db())).toBe(1);
    expect(await waitForNonce(db(), row)).toMatchObject({ id: row.id, status: "mined" });
  });

  it("reports it replaced once the re-reads are over", async () => {
    const row = await takenRow("recovery", "over");
    expect(await waitForNonce(db(), row)).toMatchObject({ id: row.id, status: "replaced" });
  });
});

describe("the sweeper owner's call meets a late receipt", () => {
  it("says it is still being checked (not 'run the command again') while the re-reads last, then returns the mined hash", async () => {
    const row = await takenRow("sweeper_admin", "due");
    const waited = waitForOwnerCall(db(), row);
    await expect(waited).rejects.toThrow(/still being checked/);
    await expect(waited).rejects.not.toThrow(/command again/);
    expect(await recheckTakenNonces(db())).toBe(1);
    expect(await waitForOwnerCall(db(), row)).toBe(row.txHash);
  });

  it("says it was not mined once the re-reads are over", async () => {
    const row = await takenRow("sweeper_admin", "over");
    await expect(waitForOwnerCall(db(), row)).rejects.toThrow(/was not mined; run sweeper status, then the command again/);
  });
});
