import { and, eq } from "drizzle-orm";
import { type Address, parseEther, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getOne } from "@/app/api/v1/withdrawal/[withdrawalId]/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { chainTransactions, withdrawals } from "@/lib/db/schema";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { settleNonce } from "@/lib/engine/ledger/settle";
import { getHealth } from "@/lib/ops/health/health";
import { operatorStatus } from "@/lib/ops/health/status";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { renderMetrics } from "@/lib/ops/metrics/collect";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { type ReceiptLagProxy, startReceiptLagProxy } from "../helpers/receipt-lag-proxy";
import { recorded } from "../helpers/withdrawals";

// The Inngest client reads INNGEST_DEV when it is created: no Inngest Cloud in tests.
vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

/**
 * Withdrawals are final only on chain (docs/design.md §12, §17): played against an endpoint whose
 * receipts come from a node 4 blocks behind the one answering nonces, and against one that answers
 * "underpriced" to every broadcast.
 */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const SECRET = "integration-test-secret-0123456789";

let merchant: Merchant;
let token: Address;
let wallet: Address;
let proxy: ReceiptLagProxy;
const headers = (key?: string) => ({ "x-api-key": merchant.apiKey, ...(key ? { "idempotency-key": key } : {}) });
const recipient = (i: number) => `0x${(0xa11ce000 + i).toString(16).padStart(40, "0")}` as Address;
const body = (to: Address, amount = "1") => ({ domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: to, amount });

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1" });
  await fundGasTank(chain().url);
  const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
  token = await deployTestToken(chain().url, { symbol: "LAG", mintTo: [wallet] });
  const { POST: registerToken } = await import("@/app/api/user/tokens/route");
  await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(db(), "bsc", token);
  merchant.tokenId = (
    await call(registerToken, { method: "POST", headers: merchant.auth, body: { contractAddress: token, network: "bsc" } })
  ).body.data.tokenId;
  // Gas in the wallet already: a top-up would wait for a receipt the lagging node hides until blocks pass.
  await chain().client.setBalance({ address: wallet, value: parseEther("1") });
  proxy = await startReceiptLagProxy(chain().url, 4);
  useConfig({ BSC_RPC_URL: proxy.url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1" });
});

afterAll(async () => {
  await proxy?.close();
});

describe("a withdrawal whose receipts lag its nonce by 4 blocks", () => {
  it("completes, is never reported failed, and its Idempotency-Key still replays the same withdrawal", async () => {
    const sent: { id: string; key: string; to: Address }[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(send, { method: "POST", headers: headers(`lagging-${i}`), body: body(recipient(i)) });
      expect(res.status).toBe(201);
      sent.push({ id: res.body.data.withdrawalId, key: `lagging-${i}`, to: recipient(i) });
    }
    // Every send is mined at once (automine); the receipt node sees it only 4 blocks later.
    for (let round = 0; round < 8; round++) {
      await tendLedgerStep(db());
      const rows = await db().select({ status: withdrawals.status, failureReason: withdrawals.failureReason }).from(withdrawals);
      expect(rows.filter((r) => r.status === "failed")).toEqual([]);
      await chain().client.mine({ blocks: 1 });
    }
    expect(proxy.hiddenReceipts).toBeGreaterThan(0);
    for (const { id, key, to } of sent) {
      expect((await call(getOne, { headers: headers(), params: { withdrawalId: id } })).body.data).toMatchObject({
        status: "completed",
        failureReason: null,
      });
      const replay = await call(send, { method: "POST", headers: headers(key), body: body(to) });
      expect(replay.body.data.withdrawalId).toBe(id);
      expect(await tokenBalance(chain().url, token, to)).toBe(parseUnits("1", 18));
    }
  });
});

describe("a withdrawal the node answers 'underpriced'", () => {
  it("is re-priced once it waits at the wallet's next nonce past the bound, shows as stuck meanwhile, and completes once", async () => {
    proxy.lagBlocks = 0;
    proxy.refuseRawAs = "transaction underpriced";
    const to = recipient(99);
    const res = await call(send, { method: "POST", headers: headers("underpriced"), body: body(to, "2") });
    expect(res.status).toBe(201); // "underpriced" is no refusal: the node may hold it
    const [withdrawal] = await db().select().from(withdrawals).where(eq(withdrawals.id, res.body.data.withdrawalId));
    const ofNonce = () =>
      db()
        .select()
        .from(chainTransactions)
        .where(and(eq(chainTransactions.wallet, wallet), eq(chainTransactions.nonce, recorded(withdrawal).nonce)))
        .orderBy(chainTransactions.id);

    await tendLedgerStep(db());
    expect(await ofNonce()).toHaveLength(1); // young: not stuck yet
    expect((await getHealth({ startApp: false })).chains.bsc!.stuckWallets).toEqual([]);

    // Two minutes later, still not mined at the wallet's next nonce.
    await db()
      .update(chainTransactions)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(chainTransactions.id, recorded(withdrawal).chainTxId));
    await tendLedgerStep(db());
    const [original, repriced] = await ofNonce();
    expect(repriced).toMatchObject({ kind: "withdrawal", replacesId: original!.id, status: "pending", toAddress: token });
    expect(repriced!.gasPrice).toBeGreaterThanOrEqual(original!.gasPrice * 2n);
    expect(original!.stuckSince).not.toBeNull();

    // The stall is visible while the node keeps refusing: health, admin status, the metric.
    const health = await getHealth({ startApp: false });
    expect(health.status).toBe("degraded");
    expect(health.chains.bsc!.stuckWallets).toEqual([
      { wallet: "withdrawal", kind: "withdrawal", nonce: recorded(withdrawal).nonce, since: original!.createdAt.toISOString() },
    ]);
    const status = await operatorStatus(db());
    expect(status.healthy).toBe(false);
    expect(status.lines.join("\n")).toContain(
      `withdrawal ${wallet}: withdrawal at nonce ${recorded(withdrawal).nonce} not mined for 2 min`,
    );
    const metrics = (await renderMetrics(db())).body;
    const stuck = metrics.match(new RegExp(`bscpay_wallet_stuck_seconds\\{network="bsc",wallet="${wallet}"\\} (\\d+)`));
    expect(Number(stuck?.[1])).toBeGreaterThanOrEqual(120);

    proxy.refuseRawAs = null;
    for (
      let round = 0;
      round < 5 && (await db().select().from(withdrawals).where(eq(withdrawals.id, withdrawal!.id)))[0]!.status === "submitted";
      round++
    ) {
      await tendLedgerStep(db());
      await chain().client.mine({ blocks: 1 });
    }
    const [done] = await db().select().from(withdrawals).where(eq(withdrawals.id, withdrawal!.id));
    expect(done).toMatchObject({ status: "completed", txHash: repriced!.txHash });
    expect((await ofNonce()).map((r) => r.status)).toEqual(["replaced", "mined"]);
    expect(await tokenBalance(chain().url, token, to)).toBe(parseUnits("2", 18));
    expect((await getHealth({ startApp: false })).chains.bsc!.stuckWallets).toEqual([]);

    // A replacement another process recorded while the nonce was being settled can never be mined: settled as replaced.
    const { id: _id, ...copy } = repriced!;
    const [late] = await db()
      .insert(chainTransactions)
      .values({ ...copy, txHash: `0x${"ee".repeat(32)}`, replacesId: repriced!.id, status: "pending", minedBlock: null, settledAt: null })
      .returning();
    expect(await settleNonce(db(), { network: "bsc", wallet, nonce: recorded(withdrawal).nonce })).toMatchObject({
      state: "settled",
      winner: { id: repriced!.id },
    });
    expect((await db().select().from(chainTransactions).where(eq(chainTransactions.id, late!.id)))[0]).toMatchObject({
      status: "replaced",
      replacedById: repriced!.id,
    });
  });
});
