/**
 * A nonce settled as "taken by a transaction we did not sign" whose receipt a receipts node only
 * hid, for the late-receipt test files: a fresh database and anvil, and `takenRow`, a transaction
 * really mined by `payer` written as the settler would have written its earlier "taken" verdict
 * (replaced by none; its re-reads still due, or over).
 */
import { type Address, createWalletClient, http } from "viem";
import { beforeAll } from "vitest";
import type { Db } from "@/lib/db";
import { type ChainTransaction, type ChainTransactionKind, chainTransactions, type WalletRole } from "@/lib/db/schema";
import { chainAt, payer, type TestChain, useTestChain } from "./chain";
import { useConfig } from "./config";
import { useTestDatabase } from "./database";

const SINK = "0x000000000000000000000000000000000000dEaD" as Address;

export interface LateReceipts {
  db: () => Db;
  chain: () => TestChain;
  takenRow(kind: ChainTransactionKind, walletRole: WalletRole, rereads: "due" | "over"): Promise<ChainTransaction>;
}

/** Call at the top of a test file. */
export function useLateReceipts(): LateReceipts {
  const db = useTestDatabase();
  const chain = useTestChain({ chainId: 56 });
  beforeAll(() => {
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  });

  async function takenRow(kind: ChainTransactionKind, walletRole: WalletRole, rereads: "due" | "over"): Promise<ChainTransaction> {
    const wallet = createWalletClient({ account: payer, chain: await chainAt(chain().url), transport: http(chain().url) });
    const hash = await wallet.sendTransaction({ to: SINK, value: 1n });
    const tx = await chain().client.getTransaction({ hash });
    await chain().client.mine({ blocks: 2 });
    const now = new Date();
    const [row] = await db()
      .insert(chainTransactions)
      .values({
        network: "bsc",
        walletRole,
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
    // An insert … returning without a conflict clause returns its row.
    return row!;
  }

  return { db, chain, takenRow };
}
