import { eq, sql } from "drizzle-orm";
import { type Address, formatUnits, parseEther, parseUnits } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getOne } from "@/app/api/v1/payouts/[batchId]/route";
import { POST as create, GET as list } from "@/app/api/v1/payouts/route";
import { chainTransactions, payoutBatches, payoutItems, webhookDeliveries } from "@/lib/db/schema";
import { getPayoutBatch } from "@/lib/domain/payouts/payout-view";
import { recordPayoutBatch, rejectPayoutBatch, releasePayoutBatch } from "@/lib/domain/payouts/record-batch";
import { grantPlan } from "@/lib/domain/plans/grant-plan";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { deployBlockingToken } from "../helpers/blocking-token";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

/** Payouts to many at once (docs/design.md §24): one request, a handful of ledger transactions, every recipient paid once. */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });
const SECRET = "integration-test-secret-0123456789";

let merchant: Merchant;
let token: Address;
let wallet: Address;
const headers = (key?: string) => ({ "x-api-key": merchant.apiKey, ...(key ? { "idempotency-key": key } : {}) });
const recipient = (i: number, base = 0xb0b0000) => `0x${(base + i).toString(16).padStart(40, "0")}` as Address;

async function registerToken(contract: Address): Promise<number> {
  const { POST } = await import("@/app/api/user/tokens/route");
  await (await import("@/lib/domain/tokens/catalogue")).allowCatalogueToken(db(), "bsc", contract);
  return (await call(POST, { method: "POST", headers: merchant.auth, body: { contractAddress: contract, network: "bsc" } })).body.data
    .tokenId;
}

async function settle(batchId: string, rounds = 10) {
  for (let round = 0; round < rounds; round++) {
    await tendLedgerStep(db());
    const res = await call(getOne, { headers: headers(), params: { batchId } });
    if (["completed", "partially_failed", "failed"].includes(res.body.data.status)) return res.body.data;
    await chain().client.mine({ blocks: 1 });
  }
  return (await call(getOne, { headers: headers(), params: { batchId } })).body.data;
}

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: SECRET, CONFIRMATIONS: "1", WEBHOOK_ALLOW_PRIVATE: "true" });
  await fundGasTank(chain().url);
  const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  // Each payout item counts as a withdrawal of the day: the 200-recipient batch needs Pro's 5,000 (Starter allows 100).
  await grantPlan(db(), merchant.email, "pro");
  wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
  token = await deployTestToken(chain().url, { symbol: "PAY", mintTo: [wallet] });
  merchant.tokenId = await registerToken(token);
  await chain().client.setBalance({ address: wallet, value: parseEther("5") });
});

describe("POST /api/v1/payouts", () => {
  it("pays 200 recipients in a handful of transactions, each once, and tells each item's outcome", async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ toAddress: recipient(i), amount: `${i + 1}.5`, reference: `inv-${i}` }));
    const res = await call(create, {
      method: "POST",
      headers: headers("batch-200"),
      body: { domainId: merchant.domainId, tokenId: merchant.tokenId, items },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.itemCount).toBe(200);
    expect(res.body.data.items).toHaveLength(200);
    const view = await settle(res.body.data.batchId);
    expect(view.status).toBe("completed");
    expect(view.counts).toEqual({ pending: 0, sending: 0, completed: 200, failed: 0 });
    expect(view.items[7]).toMatchObject({ index: 7, amount: "8.5", reference: "inv-7", status: "completed" });
    expect(view.items[7].txHash).toMatch(/^0x[0-9a-f]{64}$/);
    for (let i = 0; i < 200; i++) expect(await tokenBalance(chain().url, token, recipient(i))).toBe(parseUnits(`${i + 1}.5`, 18));
    const ledger = await db().select().from(chainTransactions).where(eq(chainTransactions.wallet, wallet));
    // Anvil's 30M-gas blocks hold 114 items per pay transaction: a deployment, 2 approves, 2 pays.
    expect(ledger.length).toBeLessThanOrEqual(5);
    expect(ledger.filter((r) => r.kind === "payout")).toHaveLength(2);
    expect(ledger.every((r) => r.status === "mined")).toBe(true);
  });

  it("refuses a batch with bad rows whole, naming every one by its index at once, and records nothing", async () => {
    const { POST: createSession } = await import("@/app/api/v1/payment/create/route");
    const session = await call(createSession, {
      method: "POST",
      headers: headers(),
      body: { tokenId: merchant.tokenId, amount: "1", orderId: "payout-deposit-address" },
    });
    const items = [
      { toAddress: recipient(1, 0xc0c0000), amount: "1" },
      { toAddress: "0x1234", amount: "1" },
      { toAddress: recipient(2, 0xc0c0000), amount: "1.0000000000000000001" },
      { toAddress: recipient(3, 0xc0c0000), amount: "-5" },
      { toAddress: recipient(4, 0xc0c0000), amount: "1", reference: "x".repeat(201) },
      { toAddress: wallet, amount: "1" },
      { toAddress: recipient(5, 0xc0c0000), amount: "0" },
      { toAddress: session.body.data.depositAddress, amount: "1" },
      { toAddress: keyRingFor(TEST_MNEMONIC).gasTankAddress(), amount: "1" },
      { toAddress: recipient(6, 0xc0c0000), amount: "2" },
    ];
    const before = (await db().select().from(payoutBatches)).length;
    const res = await call(create, {
      method: "POST",
      headers: headers(),
      body: { domainId: merchant.domainId, tokenId: merchant.tokenId, items },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", reason: "payout-items-invalid" });
    // Shape and meaning together: a bad address or amount string, too many decimals, a negative or zero
    // amount, a long reference, and each gateway address (a withdrawal wallet, a deposit address, the gas tank).
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      "items.1.toAddress",
      "items.2.amount",
      "items.3.amount",
      "items.4.reference",
      "items.5.toAddress",
      "items.6.amount",
      "items.7.toAddress",
      "items.8.toAddress",
    ]);
    expect(res.body.error.message).toMatch(/^8 of 10 items are invalid/);
    expect((await db().select().from(payoutBatches)).length).toBe(before);
    const tooMany = Array.from({ length: 501 }, (_, i) => ({ toAddress: recipient(i, 0xd0d0000), amount: "1" }));
    const res3 = await call(create, {
      method: "POST",
      headers: headers(),
      body: { domainId: merchant.domainId, tokenId: merchant.tokenId, items: tooMany },
    });
    expect(res3.status).toBe(400);
    expect(res3.body.error.details[0].path).toBe("items");
  });

  it("replays the same Idempotency-Key and body, and refuses the key with another body", async () => {
    const body = { domainId: merchant.domainId, tokenId: merchant.tokenId, items: [{ toAddress: recipient(1, 0xe0e0000), amount: "3" }] };
    const first = await call(create, { method: "POST", headers: headers("idem-1"), body });
    expect(first.status).toBe(201);
    const again = await call(create, { method: "POST", headers: headers("idem-1"), body });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.batchId).toBe(first.body.data.batchId);
    const other = await call(create, {
      method: "POST",
      headers: headers("idem-1"),
      body: { ...body, items: [{ ...body.items[0], amount: "4" }] },
    });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("IDEMPOTENCY_CONFLICT");
    await settle(first.body.data.batchId);
    expect(await tokenBalance(chain().url, token, recipient(1, 0xe0e0000))).toBe(parseUnits("3", 18));
    const listed = await call(list, { headers: headers(), path: "/api/v1/payouts?limit=1" });
    expect(listed.body.data.items).toHaveLength(1);
    expect(listed.body.data.items[0]).toMatchObject({ batchId: first.body.data.batchId, counts: { completed: 1 } });
    const next = await call(list, { headers: headers(), path: `/api/v1/payouts?limit=1&cursor=${listed.body.data.nextCursor}` });
    expect(next.body.data.items[0].counts).toMatchObject({ completed: 200 });
    expect(next.body.data.nextCursor).toBeNull();
  });

  it("answers NOT_FOUND for another key's batch, and UNAUTHORIZED to a key without the payouts scope", async () => {
    // Keys of the owner with these scopes (over HTTP a money scope needs the owner's two-factor: key-holders.test.ts).
    const { createApiKey } = await import("@/lib/accounts/api-keys/create-api-key");
    const key = async (scopes: ("payouts" | "withdrawals")[]) =>
      (await createApiKey(db(), merchant.userId, `k-${scopes.join()}`, { kind: "secret", scopes })).key;
    const body = { domainId: merchant.domainId, tokenId: merchant.tokenId, items: [{ toAddress: recipient(1, 0x4440000), amount: "1" }] };
    const mine = await call(create, { method: "POST", headers: headers(), body });
    const other = await key(["payouts"]);
    const seen = await call(getOne, { headers: { "x-api-key": other }, params: { batchId: mine.body.data.batchId } });
    expect(seen.status).toBe(404);
    expect((await call(getOne, { headers: headers(), params: { batchId: "not-a-uuid" } })).status).toBe(400);
    const withdrawOnly = await key(["withdrawals"]);
    const refused = await call(create, { method: "POST", headers: { "x-api-key": withdrawOnly }, body });
    expect(refused.status).toBe(401);
    expect(refused.body.error.reason).toBe("api-key-scope-missing");
    await settle(mine.body.data.batchId);
  });

  it("refuses a batch the wallet's tokens cannot cover, recording nothing", async () => {
    const before = (await db().select().from(payoutBatches)).length;
    const items = [
      { toAddress: recipient(1, 0xf0f0000), amount: "600000" },
      { toAddress: recipient(2, 0xf0f0000), amount: "600000" },
    ];
    const res = await call(create, {
      method: "POST",
      headers: headers(),
      body: { domainId: merchant.domainId, tokenId: merchant.tokenId, items },
    });
    expect(res.status).toBe(502);
    expect(res.body.error.reason).toBe("wallet-short-of-tokens");
    expect((await db().select().from(payoutBatches)).length).toBe(before);
  });

  it("fails only the item whose transfer the token refuses; the others are paid and webhooks tell each", async () => {
    const { PATCH: patchDomain } = await import("@/app/api/user/domains/[id]/route");
    await call(patchDomain, {
      method: "PATCH",
      headers: merchant.auth,
      params: { id: String(merchant.domainId) },
      body: { webhookUrl: "http://127.0.0.1:9/hooks" },
    });
    const blocking = await deployBlockingToken(chain().url, [wallet]);
    const tokenId = await registerToken(blocking.address);
    const blocked = recipient(2, 0xa0a0000);
    await blocking.block(blocked);
    const items = [0, 1, 2, 3].map((i) => ({ toAddress: recipient(i, 0xa0a0000), amount: "10" }));
    const res = await call(create, { method: "POST", headers: headers(), body: { domainId: merchant.domainId, tokenId, items } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const view = await settle(res.body.data.batchId);
    expect(view.status).toBe("partially_failed");
    expect(view.items.map((i: { status: string }) => i.status)).toEqual(["completed", "completed", "failed", "completed"]);
    expect(view.items[2].failureReason).toMatch(/refused/);
    expect(await tokenBalance(chain().url, blocking.address, recipient(3, 0xa0a0000))).toBe(parseUnits("10", 18));
    const rows = await db().select().from(payoutItems).where(eq(payoutItems.batchId, res.body.data.batchId));
    expect(rows.every((r) => r.chainTxId !== null)).toBe(true);
    const events = (await db().select().from(webhookDeliveries)).map((d) => JSON.parse(d.payload));
    const ofBatch = events.filter((e) => (e.data.batchId ?? "") === res.body.data.batchId);
    expect(ofBatch.map((e) => e.type).sort()).toEqual([
      "payout.completed",
      "payout.completed",
      "payout.completed",
      "payout.failed",
      "payout_batch.completed",
    ]);
    expect(ofBatch.find((e) => e.type === "payout.failed").data).toMatchObject({ index: 2, toAddress: blocked, status: "failed" });
    expect(ofBatch.find((e) => e.type === "payout_batch.completed").data).toMatchObject({
      status: "partially_failed",
      counts: { completed: 3, failed: 1 },
    });
  });
});

describe("the approvals hook (recordPayoutBatch awaiting approval, releasePayoutBatch, rejectPayoutBatch)", () => {
  const input = (base: number) => ({
    domainId: merchant.domainId,
    tokenId: merchant.tokenId,
    items: [0, 1].map((i) => ({ toAddress: recipient(i, base), amount: "2", reference: undefined })),
  });
  const requester = () => ({ accountId: merchant.userId, apiKeyId: null, requestedBy: merchant.userId });
  const ledgerRows = async () => (await db().select().from(chainTransactions).where(eq(chainTransactions.wallet, wallet))).length;

  it("sends nothing while awaiting approval, and pays once released", async () => {
    const batch = await recordPayoutBatch(db(), requester(), input(0x1110000), { awaitingApproval: true });
    expect(batch.status).toBe("awaiting_approval");
    const before = await ledgerRows();
    await tendLedgerStep(db());
    expect(await ledgerRows()).toBe(before);
    const released = await releasePayoutBatch(db(), batch.id);
    expect(released.status).toBe("pending");
    const view = await settleBatch(batch.id);
    expect(view.status).toBe("completed");
    expect(await tokenBalance(chain().url, token, recipient(1, 0x1110000))).toBe(parseUnits("2", 18));
    await expect(releasePayoutBatch(db(), batch.id)).rejects.toMatchObject({ reason: "payout-batch-not-awaiting-approval" });
  });

  it("rejects for good: the items fail without reaching the ledger", async () => {
    const batch = await recordPayoutBatch(db(), requester(), input(0x2220000), { awaitingApproval: true });
    const before = await ledgerRows();
    const rejected = await rejectPayoutBatch(db(), batch.id, "not this month");
    expect(rejected).toMatchObject({ status: "rejected", reason: "not this month" });
    await tendLedgerStep(db());
    expect(await ledgerRows()).toBe(before);
    const items = await db().select().from(payoutItems).where(eq(payoutItems.batchId, batch.id));
    expect(items.map((i) => [i.status, i.chainTxId])).toEqual([
      ["failed", null],
      ["failed", null],
    ]);
    await expect(releasePayoutBatch(db(), batch.id)).rejects.toMatchObject({ reason: "payout-batch-not-awaiting-approval" });
    expect(await tokenBalance(chain().url, token, recipient(0, 0x2220000))).toBe(0n);
  });
});

describe("tokens held back for open payout items", () => {
  it("refuses a withdrawal the wallet could pay only with a batch's tokens awaiting approval, and allows it once rejected", async () => {
    const { POST: withdraw } = await import("@/app/api/v1/withdrawal/send/route");
    const balance = await tokenBalance(chain().url, token, wallet);
    const batch = await recordPayoutBatch(
      db(),
      { accountId: merchant.userId, apiKeyId: null, requestedBy: merchant.userId },
      {
        domainId: merchant.domainId,
        tokenId: merchant.tokenId,
        items: [{ toAddress: recipient(1, 0x3330000), amount: formatUnits(balance - parseUnits("1", 18), 18) }],
      },
      { awaitingApproval: true },
    );
    const body = { domainId: merchant.domainId, tokenId: merchant.tokenId, toAddress: recipient(2, 0x3330000), amount: "2" };
    const refused = await call(withdraw, { method: "POST", headers: headers(), body });
    expect(refused.status).toBe(502);
    expect(refused.body.error.reason).toBe("wallet-short-of-tokens");
    const second = await call(create, {
      method: "POST",
      headers: headers(),
      body: { domainId: merchant.domainId, tokenId: merchant.tokenId, items: [{ toAddress: recipient(3, 0x3330000), amount: "2" }] },
    });
    expect(second.body.error?.reason).toBe("wallet-short-of-tokens");
    await rejectPayoutBatch(db(), batch.id, "no");
    expect((await call(withdraw, { method: "POST", headers: headers(), body })).status).toBe(201);
  });
});

/** A batch recorded without an API key: read through the lib, settled by the tend-ledger job. */
async function settleBatch(batchId: string) {
  for (let round = 0; round < 10; round++) {
    await tendLedgerStep(db());
    const view = await getPayoutBatch(db(), null, batchId);
    if (["completed", "partially_failed", "failed"].includes(view.status)) return view;
    await chain().client.mine({ blocks: 1 });
  }
  return getPayoutBatch(db(), null, batchId);
}

describe("GET /api/v1/payouts", () => {
  it("pages through batches made within one millisecond, each once (the cursor keeps microseconds)", async () => {
    for (const n of [1, 2, 3]) {
      const body = { domainId: merchant.domainId, tokenId: merchant.tokenId, items: [{ toAddress: recipient(n, 0xf0f0000), amount: "1" }] };
      expect((await call(create, { method: "POST", headers: headers(`same-ms-${n}`), body })).status).toBe(201);
    }
    const all = await call(list, { headers: headers(), path: "/api/v1/payouts?limit=100" });
    const ids: string[] = all.body.data.items.map((b: { batchId: string }) => b.batchId);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    // One millisecond, a microsecond apart: a cursor read back as a JS Date would lose them.
    for (const [i, id] of ids.entries()) {
      await db()
        .update(payoutBatches)
        .set({ createdAt: sql`'2026-01-01T00:00:00.000000Z'::timestamptz + ${i} * interval '1 microsecond'` })
        .where(eq(payoutBatches.id, id));
    }
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { items: { batchId: string }[]; nextCursor: string | null } } } = await call(list, {
        headers: headers(),
        path: `/api/v1/payouts?limit=1${cursor ? `&cursor=${cursor}` : ""}`,
      });
      paged.push(...page.body.data.items.map((b) => b.batchId));
      cursor = page.body.data.nextCursor;
    } while (cursor && paged.length <= ids.length);
    expect(paged).toHaveLength(ids.length);
    expect(new Set(paged)).toEqual(new Set(ids));
  });
});
