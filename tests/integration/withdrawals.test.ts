import { and, desc, eq } from "drizzle-orm";
import { type Address, parseEther, parseUnits } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getOne } from "@/app/api/v1/withdrawal/[withdrawalId]/route";
import { GET as history } from "@/app/api/v1/withdrawal/history/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { chainTransactions, withdrawals } from "@/lib/db/schema";
import { recordWithdrawal } from "@/lib/domain/withdrawals/send-withdrawal";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { type Merchant, newApiKey, setUpMerchant } from "../helpers/accounts";
import { deployBlockingToken } from "../helpers/blocking-token";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { startRpcProxy } from "../helpers/rpc-proxy";
import { recorded } from "../helpers/withdrawals";

// The Inngest client reads INNGEST_DEV when it is created: no Inngest Cloud in tests.
vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const RECIPIENT = "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097" as Address;

let merchant: Merchant;
let token: Address;
let wallet: Address;
/** A token of the same wallet that refuses transfers to one recipient: a send to it reverts in simulation. */
let blocking: { tokenId: number; blocked: Address };
const headers = () => ({ "x-api-key": merchant.apiKey });
const body = (amount = "25", extra: Record<string, unknown> = {}) => ({
  domainId: merchant.domainId,
  tokenId: merchant.tokenId,
  toAddress: RECIPIENT,
  amount,
  ...extra,
});
const countWithdrawals = async () => (await db().select({ id: withdrawals.id }).from(withdrawals)).length;
const countCompleted = async () =>
  (await db().select({ id: withdrawals.id }).from(withdrawals).where(eq(withdrawals.status, "completed"))).length;
/** BNB in the withdrawal wallet already: recordWithdrawal never tops it up (the API's send does), and no top-up goes first. */
const walletHoldsGas = () => chain().client.setBalance({ address: wallet, value: parseEther("1") });
const walletTxCount = () => chain().client.getTransactionCount({ address: wallet, blockTag: "pending" });

async function confirmAll() {
  for (let i = 0; i < 10; i++) {
    await chain().client.mine({ blocks: 1 });
    const counts = await tendLedgerStep(db());
    if (counts.pending === 0) return;
  }
  throw new Error("withdrawals did not settle");
}

/** The merchant, its domain's withdrawal wallet holding a million WDR (and no BNB yet), WDR registered as its token. */
beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  await fundGasTank(chain().url);
  const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
  token = await deployTestToken(chain().url, { symbol: "WDR", mintTo: [wallet] });
  const { POST: registerToken } = await import("@/app/api/user/tokens/route");
  await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(await (await import("@/lib/db")).getDb(), "bsc", token);
  merchant.tokenId = (
    await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
  ).body.data.tokenId;
  const refusing = await deployBlockingToken(chain().url, [wallet]);
  await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(
    await (await import("@/lib/db")).getDb(),
    "bsc",
    refusing.address,
  );
  const blocked = "0x7777777777777777777777777777777777777777" as Address;
  await refusing.block(blocked);
  blocking = {
    tokenId: (
      await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: refusing.address, network: "bsc" } })
    ).body.data.tokenId,
    blocked,
  };
});
/** A send whose transfer the token refuses: its simulation reverts. */
const revertingBody = () => body("1", { tokenId: blocking.tokenId, toAddress: blocking.blocked });

describe("POST /api/v1/withdrawal/send", () => {
  it("sends from the domain's withdrawal wallet (topped up with gas first) and completes", async () => {
    expect(merchant.withdrawalAddress).toBe(wallet);
    expect(await chain().client.getBalance({ address: wallet })).toBe(0n);

    const res = await call(send, { method: "POST", headers: headers(), body: body("25", { toAddress: RECIPIENT.toLowerCase() }) });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      amount: "25",
      token: "WDR",
      toAddress: RECIPIENT,
      status: "submitted",
      domainId: merchant.domainId,
      fromAddress: wallet,
    });
    expect(res.body.data.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // One ledger: the gas tank's top-up and the withdrawal itself, each recorded with its wallet and nonce.
    const ledger = await db().select().from(chainTransactions).orderBy(chainTransactions.id);
    expect(ledger.map((r) => [r.kind, r.walletRole, r.wallet])).toEqual([
      ["wallet_gas", "gas_tank", keyRingFor(TEST_MNEMONIC).gasTankAddress()],
      ["withdrawal", "withdrawal", wallet],
    ]);
    expect(ledger[1]!.txHash).toBe(res.body.data.txHash);

    await confirmAll();
    const fetched = await call(getOne, { headers: headers(), params: { withdrawalId: res.body.data.withdrawalId } });
    expect(fetched.body.data).toMatchObject({ status: "completed", failureReason: null, txHash: res.body.data.txHash });
    expect(fetched.body.data.confirmedAt).toEqual(expect.any(String));
    expect(await tokenBalance(chain().url, token, RECIPIENT)).toBe(parseUnits("25", 18));
  });

  const invalid: [Record<string, unknown>, string][] = [
    [{ domainId: undefined }, "domainId must be an integer"],
    [{ tokenId: "1" }, "tokenId must be an integer"],
    [{ toAddress: "0x123" }, "toAddress must be a 0x-prefixed"],
    [{ toAddress: undefined }, "toAddress must be a string"],
    [{ amount: "abc" }, "amount must be a positive decimal string"],
    [{ amount: 5 }, "amount must be a decimal string"],
    [{ amount: "0" }, "amount must be greater than 0"],
    [{ amount: "1.0000000000000000001" }, "more than 18 decimal places"],
  ];
  it.each(invalid)("refuses %j with VALIDATION_ERROR, recording and sending nothing", async (override, message) => {
    const [before, txs] = [await countWithdrawals(), await walletTxCount()];
    const res = await call(send, { method: "POST", headers: headers(), body: body("1", override) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.message).toContain(message);
    expect(await countWithdrawals()).toBe(before);
    expect(await walletTxCount()).toBe(txs);
  });

  it("answers NOT_FOUND for another user's domain or token", async () => {
    const other = await setUpMerchant({ contractAddress: token, network: "bsc", domain: "https://other.example" });
    const before = await countWithdrawals();
    const foreignDomain = await call(send, { method: "POST", headers: headers(), body: body("1", { domainId: other.domainId }) });
    expect(foreignDomain.status).toBe(404);
    expect(foreignDomain.body.error.code).toBe("NOT_FOUND");
    const foreignToken = await call(send, { method: "POST", headers: headers(), body: body("1", { tokenId: other.tokenId }) });
    expect(foreignToken.status).toBe(404);
    expect(await countWithdrawals()).toBe(before);
  });

  it("answers BLOCKCHAIN_ERROR saying which, with no record and no transaction, for too few tokens, no gas, or a revert", async () => {
    const [before, txs] = [await countWithdrawals(), await walletTxCount()];
    const tooMuch = await call(send, { method: "POST", headers: headers(), body: body("2000000") });
    expect(tooMuch.status).toBe(502);
    expect(tooMuch.body.error).toMatchObject({ code: "BLOCKCHAIN_ERROR" });
    expect(tooMuch.body.error.message).toContain("not enough tokens");
    const revert = await call(send, { method: "POST", headers: headers(), body: revertingBody() });
    expect(revert.status).toBe(502);
    expect(revert.body.error.message).toContain("would revert");
    // The zero address is refused before anything is asked of the chain (funds sent there are lost).
    const zero = await call(send, {
      method: "POST",
      headers: headers(),
      body: body("1", { toAddress: "0x0000000000000000000000000000000000000000" }),
    });
    expect(zero.status).toBe(400);
    expect(zero.body.error.reason).toBe("reserved-address");

    const poorWallet = keyRingFor(TEST_MNEMONIC).gasTankAddress();
    const savedWalletBnb = await chain().client.getBalance({ address: wallet });
    await chain().client.setBalance({ address: wallet, value: 0n });
    await chain().client.setBalance({ address: poorWallet, value: 0n });
    const noGas = await call(send, { method: "POST", headers: headers(), body: body("1") });
    expect(noGas.status).toBe(502);
    expect(noGas.body.error.message).toContain("not enough BNB for gas");
    await chain().client.setBalance({ address: wallet, value: savedWalletBnb });
    await fundGasTank(chain().url, parseEther("10"));

    expect(await countWithdrawals()).toBe(before);
    expect(await walletTxCount()).toBe(txs);
  });

  it("sends 30 concurrent withdrawals from one wallet with consecutive nonces, all completing", async () => {
    const start = await chain().client.getTransactionCount({ address: wallet });
    const before = await tokenBalance(chain().url, token, RECIPIENT);
    const completedBefore = await countCompleted();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => call(send, { method: "POST", headers: headers(), body: body("1") })),
    );
    expect(
      results.map((r) => r.status),
      JSON.stringify(results.filter((r) => r.status !== 201).map((r) => r.body)),
    ).toEqual(Array(30).fill(201));
    const rows = await db().select().from(withdrawals).where(eq(withdrawals.status, "submitted"));
    expect(rows.map((w) => recorded(w).nonce).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => start + i));
    await confirmAll();
    expect(await tokenBalance(chain().url, token, RECIPIENT)).toBe(before + parseUnits("30", 18));
    expect(await countCompleted()).toBeGreaterThanOrEqual(completedBefore + 30);
  });

  it("does not stall a burst when one send's simulation reverts in the middle", async () => {
    const start = await chain().client.getTransactionCount({ address: wallet });
    const bodies = Array.from({ length: 9 }, (_, i) => (i === 4 ? revertingBody() : body("1")));
    const results = await Promise.all(bodies.map((b) => call(send, { method: "POST", headers: headers(), body: b })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 502, 201, 201, 201, 201]);
    await confirmAll();
    expect(await chain().client.getTransactionCount({ address: wallet })).toBe(start + 8);
    const ids = results.filter((r) => r.status === 201).map((r) => r.body.data.withdrawalId);
    for (const withdrawalId of ids) {
      expect((await call(getOne, { headers: headers(), params: { withdrawalId } })).body.data.status).toBe("completed");
    }
  });

  it("has the confirmer broadcast, exactly once, a withdrawal that was recorded but never sent", async () => {
    await walletHoldsGas();
    const before = await tokenBalance(chain().url, token, RECIPIENT);
    const start = await chain().client.getTransactionCount({ address: wallet });
    // Recorded and committed, never broadcast: the process died here.
    const { withdrawal } = await recordWithdrawal(db(), { apiKeyId: merchant.apiKeyId, userId: merchant.userId }, body("3") as never);
    expect(await chain().client.getTransactionCount({ address: wallet, blockTag: "pending" })).toBe(start);
    await confirmAll(); // the restarted confirmer re-sends the stored transaction, then confirms it
    await tendLedgerStep(db());
    const [row] = await db().select().from(withdrawals).where(eq(withdrawals.id, withdrawal.id));
    expect(row!.status).toBe("completed");
    expect(await chain().client.getTransactionCount({ address: wallet })).toBe(start + 1);
    expect(await tokenBalance(chain().url, token, RECIPIENT)).toBe(before + parseUnits("3", 18));
  });

  it("honours Idempotency-Key, also for concurrent duplicates: one withdrawal, one transfer", async () => {
    const start = await chain().client.getTransactionCount({ address: wallet });
    const idem = { ...headers(), "idempotency-key": "payout-77" };
    const results = await Promise.all(Array.from({ length: 5 }, () => call(send, { method: "POST", headers: idem, body: body("2") })));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(201));
    expect(new Set(results.map((r) => r.body.data.withdrawalId)).size).toBe(1);
    const conflict = await call(send, { method: "POST", headers: idem, body: body("3") });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("IDEMPOTENCY_CONFLICT");
    await confirmAll();
    expect(await chain().client.getTransactionCount({ address: wallet })).toBe(start + 1);
  });
});

describe("refused broadcasts and the Inngest confirmer", () => {
  // The one refused raw transaction is then the withdrawal's own, never a gas top-up.
  beforeAll(walletHoldsGas);

  it("keeps a refused withdrawal submitted until the filler takes its nonce, then fails it; later sends still go through", async () => {
    const proxy = await startRpcProxy(chain().url, { refuseRawTransactions: 1 });
    useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
    const start = await chain().client.getTransactionCount({ address: wallet });
    try {
      const { withdrawal } = await recordWithdrawal(db(), { apiKeyId: merchant.apiKeyId, userId: merchant.userId }, body("1") as never);
      await chain().client.setAutomine(false); // the filler waits in the mempool: nothing is settled yet
      await tendLedgerStep(db());
      await tendLedgerStep(db());
      const [refused] = await db().select().from(withdrawals).where(eq(withdrawals.id, withdrawal.id));
      expect(refused).toMatchObject({ status: "submitted", failureReason: null });
      const [own, filler] = await db()
        .select()
        .from(chainTransactions)
        .where(and(eq(chainTransactions.wallet, wallet), eq(chainTransactions.nonce, withdrawal.nonce)))
        .orderBy(chainTransactions.id);
      expect(own).toMatchObject({
        id: withdrawal.chainTxId,
        status: "pending",
        broadcastError: "refused: invalid sender",
      });
      expect(filler).toMatchObject({ kind: "cancel", replacesId: own!.id, wallet, toAddress: wallet, status: "pending" });

      await chain().client.setAutomine(true);
      await confirmAll(); // the filler (a 0-value self-transfer) is mined at the withdrawal's nonce
      const [filled] = await db().select().from(withdrawals).where(eq(withdrawals.id, withdrawal.id));
      expect(filled).toMatchObject({ status: "failed" });
      expect((await db().select().from(chainTransactions).where(eq(chainTransactions.id, own!.id)))[0]).toMatchObject({
        status: "replaced",
        replacedById: filler!.id,
      });
      expect(filled!.failureReason).toContain("the network refused the transaction (invalid sender)");
      expect(filled!.failureReason).toContain("nothing was sent");
      expect(await chain().client.getTransactionCount({ address: wallet })).toBe(start + 1);

      const next = await call(send, { method: "POST", headers: headers(), body: body("1") });
      expect(next.status).toBe(201);
      await confirmAll();
      expect((await call(getOne, { headers: headers(), params: { withdrawalId: next.body.data.withdrawalId } })).body.data.status).toBe(
        "completed",
      );
      expect(await chain().client.getTransactionCount({ address: wallet })).toBe(start + 2);
    } finally {
      await chain().client.setAutomine(true);
      useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
      await proxy.close();
    }
  });

  it.each(["missing-trie-node", "html"] as const)(
    "cancels nothing when the node answers a send with words nobody classified (%s): the same bytes go out again and complete",
    async (as) => {
      const proxy = await startRpcProxy(chain().url, { refuseRawTransactions: 1_000, refuseRawTransactionsAs: as });
      useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
      const start = await chain().client.getTransactionCount({ address: wallet });
      try {
        const keyed = { ...headers(), "idempotency-key": `unknown-answer-${as}` };
        const sent = await call(send, { method: "POST", headers: keyed, body: body("1") });
        expect(sent.status).toBe(201);
        const id = sent.body.data.withdrawalId;
        await tendLedgerStep(db());
        await tendLedgerStep(db());
        expect(proxy.refusedRaw).toBeGreaterThanOrEqual(3);
        const [open] = await db().select().from(withdrawals).where(eq(withdrawals.id, id));
        expect(open).toMatchObject({ status: "submitted", failureReason: null });
        const rows = await db()
          .select()
          .from(chainTransactions)
          .where(and(eq(chainTransactions.wallet, wallet), eq(chainTransactions.nonce, recorded(open).nonce)));
        expect(rows).toHaveLength(1); // no cancel recorded
        expect(rows[0]!.broadcastError?.startsWith("refused: ")).toBe(false);
        proxy.options.refuseRawTransactions = 0; // the node answers again
        await confirmAll();
        expect((await call(getOne, { headers: headers(), params: { withdrawalId: id } })).body.data.status).toBe("completed");
        expect(await chain().client.getTransactionCount({ address: wallet })).toBe(start + 1);
        // The key still answers the same withdrawal.
        expect((await call(send, { method: "POST", headers: keyed, body: body("1") })).body.data.withdrawalId).toBe(id);
      } finally {
        useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
        await proxy.close();
      }
    },
  );

  it("answers a refused send with BLOCKCHAIN_ERROR only once its nonce settled, and only then frees the Idempotency-Key", async () => {
    const proxy = await startRpcProxy(chain().url, { refuseRawTransactions: 1 });
    useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
    try {
      const keyed = { ...headers(), "idempotency-key": "refused-then-retried" };
      const refused = await call(send, { method: "POST", headers: keyed, body: body("2") });
      expect(refused.status).toBe(502);
      expect(refused.body.error.code).toBe("BLOCKCHAIN_ERROR");
      expect(refused.body.error.message).toContain("invalid sender");
      expect(refused.body.error.message).toContain("nothing was sent");
      const [refusedRow] = await db()
        .select()
        .from(chainTransactions)
        .where(eq(chainTransactions.broadcastError, "refused: invalid sender"))
        .orderBy(desc(chainTransactions.id))
        .limit(1);
      const [failed] = await db().select().from(withdrawals).where(eq(withdrawals.chainTxId, refusedRow!.id));
      expect(failed).toMatchObject({ status: "failed" });
      const [filler] = await db().select().from(chainTransactions).where(eq(chainTransactions.replacesId, refusedRow!.id));
      expect(await chain().client.getTransactionReceipt({ hash: filler!.txHash as `0x${string}` })).toMatchObject({ status: "success" });

      const retried = await call(send, { method: "POST", headers: keyed, body: body("2") });
      expect(retried.status).toBe(201);
      expect(retried.body.data.withdrawalId).not.toBe(failed!.id);
      await confirmAll();
      expect((await call(getOne, { headers: headers(), params: { withdrawalId: retried.body.data.withdrawalId } })).body.data.status).toBe(
        "completed",
      );
      // Replayed from now on: the key belongs to the withdrawal that was sent.
      const replay = await call(send, { method: "POST", headers: keyed, body: body("2") });
      expect(replay.body.data.withdrawalId).toBe(retried.body.data.withdrawalId);
    } finally {
      useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
      await proxy.close();
    }
  });

  it("confirms withdrawals through the Inngest function too", async () => {
    const { InngestTestEngine } = await import("@inngest/test");
    const { tendLedger, TEND_LEDGER_ROUNDS } = await import("@/inngest/functions/maintenance");
    const res = await call(send, { method: "POST", headers: headers(), body: body("1") });
    await chain().client.mine({ blocks: 2 });
    const engine = new InngestTestEngine({
      function: tendLedger,
      steps: Array.from({ length: TEND_LEDGER_ROUNDS }, (_, i) => ({ id: `pause-${i}`, handler: () => undefined })),
    });
    const { result } = await engine.execute();
    expect(result).toMatchObject({ completed: expect.any(Number) });
    expect((await call(getOne, { headers: headers(), params: { withdrawalId: res.body.data.withdrawalId } })).body.data.status).toBe(
      "completed",
    );
  });
});

describe("withdrawal history and fetch", () => {
  // The tests above leave over 40 withdrawals of the key, some completed; run alone, these make their own.
  beforeAll(async () => {
    const missing = 40 - (await countWithdrawals());
    if (missing <= 0) return;
    await Promise.all(Array.from({ length: missing }, () => call(send, { method: "POST", headers: headers(), body: body("1") })));
    await confirmAll();
  });

  it("pages the key's withdrawals newest first and filters by status", async () => {
    const all = await call(history, { headers: headers(), path: "/api/v1/withdrawal/history?limit=5" });
    expect(all.status).toBe(200);
    expect(all.body.data.meta).toMatchObject({ page: 1, limit: 5 });
    expect(all.body.data.meta.total).toBeGreaterThanOrEqual(40);
    expect(all.body.data.items).toHaveLength(5);
    const created = all.body.data.items.map((w: { createdAt: string }) => w.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const completed = await call(history, { headers: headers(), path: "/api/v1/withdrawal/history?status=completed&limit=100" });
    expect(completed.body.data.items.every((w: { status: string }) => w.status === "completed")).toBe(true);
    const bad = await call(history, { headers: headers(), path: "/api/v1/withdrawal/history?status=pending" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("status must be one of submitted, completed, failed");
  });

  it("is scoped to the API key: another key sees nothing and gets NOT_FOUND", async () => {
    const other = await newApiKey(merchant.auth);
    const [one] = await db().select().from(withdrawals).limit(1);
    const res = await call(getOne, { headers: { "x-api-key": other.key }, params: { withdrawalId: one!.id } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: "NOT_FOUND", message: "withdrawal not found", reason: "not-found" });
    const list = await call(history, { headers: { "x-api-key": other.key }, path: "/api/v1/withdrawal/history" });
    expect(list.body.data.meta.total).toBe(0);
    expect((await call(getOne, { headers: headers(), params: { withdrawalId: "not-a-uuid" } })).status).toBe(400);
    expect((await call(getOne, { headers: headers(), params: { withdrawalId: crypto.randomUUID() } })).status).toBe(404);
  });
});
