import { and, eq } from "drizzle-orm";
import { type Address, parseEther } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { log } from "@/lib/base/log";
import { chainTransactions, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { DROP_AFTER_MS } from "@/lib/engine/ledger/decide";
import { recheckTakenNonces, resettleNonce } from "@/lib/engine/ledger/recheck";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank } from "../helpers/engine";
import { call } from "../helpers/http";
import { type ReceiptLagProxy, startReceiptLagProxy } from "../helpers/receipt-lag-proxy";
import { recorded } from "../helpers/withdrawals";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

/**
 * A receipts node minutes behind the one answering nonces (docs/design.md §17): the nonce is used, no
 * receipt comes back. "Taken by a transaction we did not sign" is decided in time (5 minutes), not
 * in blocks (64 were 30 s), and even then the receipts are read again until one appears. Time is
 * simulated (Date is faked, in the proxy too).
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const SECRET = "integration-test-secret-0123456789";
const MINUTE = 60_000;
let merchant: Merchant;
let wallet: Address;
let proxy: ReceiptLagProxy;
let t0: number;
const at = (ms: number) => vi.setSystemTime(t0 + ms);

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1" });
  await fundGasTank(chain().url);
  const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
  const token = await deployTestToken(chain().url, { symbol: "LAG", mintTo: [wallet] });
  const { POST: registerToken } = await import("@/app/api/user/tokens/route");
  await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(db(), "bsc", token);
  merchant.tokenId = (
    await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
  ).body.data.tokenId;
  await chain().client.setBalance({ address: wallet, value: parseEther("1") });
  proxy = await startReceiptLagProxy(chain().url, 0);
  useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1" });
});
afterAll(async () => proxy.close());
afterEach(() => {
  vi.useRealTimers();
  proxy.lagMs = 0;
});

async function withdraw(amount: string) {
  const res = await call(send, {
    method: "POST",
    headers: { "x-api-key": merchant.apiKey },
    body: { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097", amount },
  });
  expect(res.status).toBe(201);
  const [row] = await db().select().from(withdrawals).where(eq(withdrawals.id, res.body.data.withdrawalId));
  return recorded(row);
}
const statusOf = async (id: string) => (await db().select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!.status;
const rowsOf = (nonce: number) =>
  db()
    .select()
    .from(chainTransactions)
    .where(and(eq(chainTransactions.wallet, wallet), eq(chainTransactions.nonce, nonce)));

describe("a receipts node minutes behind", () => {
  it("settles a withdrawal completed when the receipt appears 3 minutes late, however many blocks passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    t0 = Date.now();
    proxy.lagMs = 3 * MINUTE;
    const withdrawal = await withdraw("1");
    for (const minute of [0, 1, 2, 2.9]) {
      at(minute * MINUTE);
      await tendLedgerStep(db());
      expect(await statusOf(withdrawal.id)).toBe("submitted");
      expect((await rowsOf(withdrawal.nonce)).map((r) => r.status)).toEqual(["pending"]);
      // Far more than the 64 blocks the old rule counted: blocks are no measure of a node's lag.
      await chain().client.mine({ blocks: 70 });
    }
    expect(proxy.hiddenReceipts).toBeGreaterThan(0);
    at(3 * MINUTE + 1_000);
    await tendLedgerStep(db());
    expect(await statusOf(withdrawal.id)).toBe("completed");
    expect((await rowsOf(withdrawal.nonce)).map((r) => r.status)).toEqual(["mined"]);
  });

  it("past 5 minutes decides 'taken by another', yet reads the receipts again and settles the withdrawal when one appears", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    t0 = Date.now();
    proxy.lagMs = 20 * MINUTE;
    const withdrawal = await withdraw("2");
    await tendLedgerStep(db());
    at(DROP_AFTER_MS);
    await tendLedgerStep(db());
    const [taken] = await rowsOf(withdrawal.nonce);
    expect(taken).toMatchObject({ status: "replaced", replacedById: null });
    expect(taken!.receiptRecheckAt).not.toBeNull();
    expect(await statusOf(withdrawal.id)).toBe("submitted"); // no webhook, no failure: it waits

    // The operator asks while the receipt is still hidden: a clear refusal, nothing changed.
    at(6 * MINUTE);
    await expect(resettleNonce(db(), { network: "bsc", wallet, nonce: String(withdrawal.nonce) })).rejects.toThrow(
      /no receipt of any of its transactions/,
    );
    expect((await rowsOf(withdrawal.nonce))[0]).toMatchObject({ status: "replaced", replacedById: null });

    // The scheduled re-read (backing off) finds it once the node has caught up.
    at(10 * MINUTE);
    await tendLedgerStep(db());
    expect(await statusOf(withdrawal.id)).toBe("submitted");
    at(21 * MINUTE);
    await tendLedgerStep(db());
    expect(await statusOf(withdrawal.id)).toBe("completed");
    expect((await rowsOf(withdrawal.nonce))[0]).toMatchObject({ status: "mined", receiptRecheckAt: null });
  });

  it("lets the operator resettle such a nonce at once with admin ledger resettle", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    t0 = Date.now();
    proxy.lagMs = 60 * MINUTE;
    const withdrawal = await withdraw("3");
    await tendLedgerStep(db());
    at(DROP_AFTER_MS);
    await tendLedgerStep(db());
    expect((await rowsOf(withdrawal.nonce))[0]).toMatchObject({ status: "replaced", replacedById: null });
    proxy.lagMs = 0; // the operator found the transaction on an explorer; the node has caught up
    at(DROP_AFTER_MS + MINUTE);
    const lines = await resettleNonce(db(), { network: "bsc", wallet: wallet.toLowerCase(), nonce: String(withdrawal.nonce) });
    expect(lines[0]).toContain(`nonce ${withdrawal.nonce} of ${wallet} on bsc: settled — withdrawal ${withdrawal.txHash} mined in block`);
    await tendLedgerStep(db());
    expect(await statusOf(withdrawal.id)).toBe("completed");
    // Settled now: asking again is refused, naming what settled it.
    await expect(resettleNonce(db(), { network: "bsc", wallet, nonce: String(withdrawal.nonce) })).rejects.toThrow("is already settled");
  });

  it("stops re-reading (logging once) a nonce that another row of it no longer lets count as taken by another", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    t0 = Date.now();
    proxy.lagMs = 60 * MINUTE;
    const withdrawal = await withdraw("4");
    await tendLedgerStep(db());
    at(DROP_AFTER_MS);
    await tendLedgerStep(db());
    const [taken] = await rowsOf(withdrawal.nonce);
    expect(taken).toMatchObject({ status: "replaced", replacedById: null });
    // A row recorded at the nonce since (a replacement written by another process): not "taken by another" any more.
    const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = taken!;
    await db()
      .insert(chainTransactions)
      .values({
        ...copy,
        replacesId: taken!.id,
        txHash: `0x${"ab".repeat(32)}`,
        status: "pending",
        settledAt: null,
        receiptRecheckAt: null,
      });
    const warn = vi.spyOn(log, "warn");
    try {
      for (const minute of [10, 20, 30]) {
        at(minute * MINUTE);
        await recheckTakenNonces(db());
      }
      const about = warn.mock.calls.filter(([fields]) => (fields as { nonce?: number }).nonce === withdrawal.nonce);
      expect(about).toHaveLength(1);
      expect(about[0]![1]).toMatch(/no longer settled as taken by another transaction; its re-reads stop/);
      expect((await rowsOf(withdrawal.nonce)).map((r) => r.receiptRecheckAt)).toEqual([null, null]);
    } finally {
      warn.mockRestore();
      await db()
        .delete(chainTransactions)
        .where(eq(chainTransactions.txHash, `0x${"ab".repeat(32)}`));
    }
  });

  it("refuses bad input to admin ledger resettle clearly, changing nothing", async () => {
    for (const [args, message] of [
      [{ network: "nope", wallet, nonce: "0" }, "network nope is not configured"],
      [{ network: "bsc", wallet: "0x123", nonce: "0" }, "0x123 is not an address"],
      [{ network: "bsc", wallet, nonce: "-1" }, "-1 is not a nonce"],
      [{ network: "bsc", wallet, nonce: "999" }, `no ledger transaction at nonce 999 of ${wallet} on bsc`],
    ] as const)
      await expect(resettleNonce(db(), args)).rejects.toThrow(message);
  });
});
