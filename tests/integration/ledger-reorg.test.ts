import { and, eq } from "drizzle-orm";
import { type Address, type Hex, parseEther, parseUnits } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { chainTransactions, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { replaceTransaction } from "@/lib/engine/ledger/replace";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

/**
 * A ledger row is final only at the confirmation depth with its receipt still in the chain's block
 * at that height (docs/design.md §21). Played with anvil: a cancel is mined at a withdrawal's nonce, the
 * chain is then reorganised (evm_revert of a snapshot) and the withdrawal itself is mined instead.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const SECRET = "integration-test-secret-0123456789";
const RECIPIENT = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" as Address;
let merchant: Merchant;
let token: Address;
let wallet: Address;

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "3" });
  await fundGasTank(chain().url);
  const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
  token = await deployTestToken(chain().url, { symbol: "ORG", mintTo: [wallet] });
  const { POST: registerToken } = await import("@/app/api/user/tokens/route");
  await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(db(), "bsc", token);
  merchant.tokenId = (
    await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
  ).body.data.tokenId;
  await chain().client.setBalance({ address: wallet, value: parseEther("1") });
});

describe("a reorganisation that swaps a cancel for its withdrawal", () => {
  it("ends with the withdrawal completed, not failed, and its Idempotency-Key still answering it", async () => {
    const keyed = { "x-api-key": merchant.apiKey, "idempotency-key": "reorg-swap" };
    const body = { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: RECIPIENT, amount: "7" };
    await chain().client.setAutomine(false);
    try {
      const sent = await call(send, { method: "POST", headers: keyed, body });
      expect(sent.status).toBe(201);
      const id = sent.body.data.withdrawalId as string;
      const [withdrawal] = await db().select().from(withdrawals).where(eq(withdrawals.id, id));
      const [own] = await db().select().from(chainTransactions).where(eq(chainTransactions.id, withdrawal!.chainTxId!));
      const snapshot = await chain().client.snapshot();

      // The branch that will be abandoned: the withdrawal never reached a block, a cancel took its nonce.
      await chain().client.dropTransaction({ hash: own!.txHash as Hex });
      const cancel = await replaceTransaction(db(), own!, "cancel");
      expect(cancel).not.toBeNull();
      await chain().client.mine({ blocks: 1 });
      const cancelReceipt = await chain().client.getTransactionReceipt({ hash: cancel!.txHash as Hex });
      for (let i = 0; i < 2; i++) {
        await tendLedgerStep(db());
        // Mined, not final: 1 and then 2 of 3 confirmations. The cancel's receipt is remembered, nothing is decided.
        expect((await db().select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!.status).toBe("submitted");
        const [cancelRow] = await db().select().from(chainTransactions).where(eq(chainTransactions.id, cancel!.id));
        expect(cancelRow).toMatchObject({ status: "pending", receiptBlockHash: cancelReceipt.blockHash });
        if (i === 0) await chain().client.mine({ blocks: 1 });
      }

      // The reorganisation: back to before the cancel's block; the withdrawal's own bytes are mined instead, then buried.
      await chain().client.revert({ id: snapshot });
      await chain().client.request({ method: "anvil_dropAllTransactions" as never, params: [] as never });
      await chain().client.sendRawTransaction({ serializedTransaction: own!.rawTx as Hex });
      await chain().client.mine({ blocks: 1 });
      const ownReceipt = await chain().client.getTransactionReceipt({ hash: own!.txHash as Hex });
      await expect(chain().client.getTransactionReceipt({ hash: cancel!.txHash as Hex })).rejects.toThrow();
      await tendLedgerStep(db());
      expect((await db().select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!.status).toBe("submitted");
      // The cancel's vanished receipt is forgotten; the withdrawal's is remembered.
      const rows = await db()
        .select()
        .from(chainTransactions)
        .where(and(eq(chainTransactions.wallet, wallet), eq(chainTransactions.nonce, own!.nonce)))
        .orderBy(chainTransactions.id);
      expect(rows.map((r) => [r.kind, r.status, r.receiptBlockHash])).toEqual([
        ["withdrawal", "pending", ownReceipt.blockHash],
        ["cancel", "pending", null],
      ]);

      await chain().client.mine({ blocks: 2 });
      await tendLedgerStep(db());
      const [done] = await db().select().from(withdrawals).where(eq(withdrawals.id, id));
      expect(done).toMatchObject({ status: "completed", failureReason: null });
      const [ownRow, cancelRow] = await db()
        .select()
        .from(chainTransactions)
        .where(and(eq(chainTransactions.wallet, wallet), eq(chainTransactions.nonce, own!.nonce)))
        .orderBy(chainTransactions.id);
      expect(ownRow).toMatchObject({ status: "mined", receiptBlockHash: ownReceipt.blockHash, minedBlock: Number(ownReceipt.blockNumber) });
      expect(cancelRow).toMatchObject({ status: "replaced", replacedById: ownRow!.id });
      expect(await tokenBalance(chain().url, token, RECIPIENT)).toBe(parseUnits("7", 18));

      // The shop's retry with the same key gets the same withdrawal: nothing is paid twice.
      const retried = await call(send, { method: "POST", headers: keyed, body });
      expect(retried.body.data.withdrawalId).toBe(id);
      await chain().client.mine({ blocks: 3 });
      expect(await tokenBalance(chain().url, token, RECIPIENT)).toBe(parseUnits("7", 18));
    } finally {
      await chain().client.setAutomine(true);
    }
  });
});
