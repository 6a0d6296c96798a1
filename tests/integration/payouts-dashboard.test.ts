import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { type Address, parseEther, parseUnits } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { asOwner, type Principal } from "@/lib/accounts/members/principal";
import type { AppError } from "@/lib/base/errors";
import { accountMembers, approvals, auditEvents, payoutBatches, payoutItems, users } from "@/lib/db/schema";
import { setApprovalPolicy } from "@/lib/domain/approval-requests/policies";
import { listAccountPayoutBatches } from "@/lib/domain/payouts/account-batches";
import { reviewPayoutCsv, sendPayoutsFromDashboard } from "@/lib/domain/payouts/dashboard-payouts";
import { getPayoutBatch } from "@/lib/domain/payouts/payout-view";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { tendLedgerStep } from "@/lib/ops/jobs/steps";
import { loadPayoutBatchPage, payoutItemsCsv } from "@/lib/web/dashboard/payouts/loaders";
import { type Merchant, setUpMerchant, signUp } from "../helpers/accounts";
import { deployTestToken, useTestChain } from "../helpers/chain";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";
import { fundGasTank, tokenBalance } from "../helpers/engine";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

/** The dashboard's payouts: a CSV reviewed by line with the API's rules, sent once per form, the batch the account's. */
const db = useTestDatabase();
const chain = useTestChain({ chainId: 56 });

let merchant: Merchant;
let owner: Principal;
let token: Address;
const recipient = (i: number) => `0x${(0xd0d0000 + i).toString(16).padStart(40, "0")}` as Address;

async function principalOf(userId: number): Promise<Principal> {
  const [user] = await db().select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`user ${userId} not found`);
  return asOwner(user);
}

async function memberWith(role: "viewer" | "finance"): Promise<Principal> {
  const user = await signUp();
  await db().insert(accountMembers).values({ accountId: merchant.userId, userId: user.userId, role });
  return { ...owner, member: (await principalOf(user.userId)).member, role };
}

const counts = async () => ({
  batches: (await db().select().from(payoutBatches).where(eq(payoutBatches.userId, merchant.userId))).length,
  audit: (await db().select().from(auditEvents).where(eq(auditEvents.action, "payout.requested"))).length,
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: AppError) => error,
  );

beforeAll(async () => {
  useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "1" });
  await fundGasTank(chain().url);
  const placeholder = await deployTestToken(chain().url, { symbol: "TMP" });
  merchant = await setUpMerchant({ contractAddress: placeholder, network: "bsc" });
  const wallet = keyRingFor(TEST_MNEMONIC).withdrawalAddress(merchant.domainId);
  // The merchant's token is minted to the domain's wallet once the domain (and so the wallet) exists.
  const paid = await deployTestToken(chain().url, { symbol: "PAY", mintTo: [wallet] });
  const { allowCatalogueToken } = await import("@/lib/domain/tokens/catalogue");
  await allowCatalogueToken(db(), "bsc", paid);
  const { POST } = await import("@/app/api/user/tokens/route");
  const { call } = await import("../helpers/http");
  merchant.tokenId = (
    await call(POST, { method: "POST", headers: merchant.auth, body: { contractAddress: paid, network: "bsc" } })
  ).body.data.tokenId;
  token = paid;
  await chain().client.setBalance({ address: wallet, value: parseEther("5") });
  owner = await principalOf(merchant.userId);
});

const CSV = [
  "address,amount,reference",
  `${recipient(1)},1.5,inv-1`,
  `${recipient(2)},2`,
  "0x1234,3,short-address",
  "",
  `${recipient(4)},0.0000000000000000001,too-precise`,
  `${recipient(5)},4,inv-5`,
].join("\n");

describe("reviewPayoutCsv", () => {
  it("lists bad rows by their line in the file and why, totals the good ones, and records nothing", async () => {
    const before = await counts();
    const review = await reviewPayoutCsv(db(), owner, { domainId: merchant.domainId, tokenId: merchant.tokenId, csv: CSV });
    expect(review.bad.map((b) => b.line)).toEqual([4, 6]);
    expect(review.bad[0]?.problems.join()).toMatch(/^address must be a 0x-prefixed 20-byte address/);
    expect(review.bad[1]?.problems.join()).toMatch(/amount/);
    expect(review.rows.map((r) => [r.line, r.amount, r.reference])).toEqual([
      [2, "1.5", "inv-1"],
      [3, "2", null],
      [7, "4", "inv-5"],
    ]);
    expect(review).toMatchObject({ count: 3, total: "7.5", token: "PAY", skipped: [] });
    expect(await counts()).toEqual(before);
  });

  it("after the bad lines are dropped, reviews the rest clean", async () => {
    const review = await reviewPayoutCsv(db(), owner, {
      domainId: merchant.domainId,
      tokenId: merchant.tokenId,
      csv: CSV,
      skipLines: [4, 6],
    });
    expect(review).toMatchObject({ bad: [], count: 3, total: "7.5", skipped: [4, 6] });
  });

  it("refuses an empty file, one over 500 rows, and another account's domain", async () => {
    const input = { domainId: merchant.domainId, tokenId: merchant.tokenId };
    expect((await failure(reviewPayoutCsv(db(), owner, { ...input, csv: "address,amount\n\n" }))).code).toBe("VALIDATION_ERROR");
    const big = Array.from({ length: 501 }, (_, i) => `${recipient(i)},1`).join("\n");
    expect((await failure(reviewPayoutCsv(db(), owner, { ...input, csv: big }))).message).toMatch(/at most 500/);
    const other = await setUpMerchant({ contractAddress: token, network: "bsc", domain: "https://other.example.com" });
    expect((await failure(reviewPayoutCsv(db(), owner, { ...input, domainId: other.domainId, csv: CSV }))).code).toBe("NOT_FOUND");
  });

  it("refuses a viewer FORBIDDEN, review and send alike, and records nothing", async () => {
    const viewer = await memberWith("viewer");
    const before = await counts();
    const input = { domainId: merchant.domainId, tokenId: merchant.tokenId, csv: CSV, skipLines: [4, 6] };
    expect((await failure(reviewPayoutCsv(db(), viewer, input))).code).toBe("FORBIDDEN");
    expect((await failure(sendPayoutsFromDashboard(db(), viewer, input, randomUUID()))).code).toBe("FORBIDDEN");
    expect(await counts()).toEqual(before);
  });
});

describe("sendPayoutsFromDashboard", () => {
  it("refuses while a bad row is left, naming its line, and records nothing", async () => {
    const before = await counts();
    const error = await failure(
      sendPayoutsFromDashboard(db(), owner, { domainId: merchant.domainId, tokenId: merchant.tokenId, csv: CSV }, randomUUID()),
    );
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details?.map((d) => d.path)).toEqual(["lines.4", "lines.6"]);
    expect(await counts()).toEqual(before);
  });

  it("records the batch with its audit row once per request id, sends it, and it completes", async () => {
    const finance = await memberWith("finance");
    const input = { domainId: merchant.domainId, tokenId: merchant.tokenId, csv: CSV, skipLines: [4, 6] };
    const requestId = randomUUID();
    const before = await counts();
    const [first, second] = await Promise.all([
      sendPayoutsFromDashboard(db(), finance, input, requestId),
      sendPayoutsFromDashboard(db(), finance, input, requestId).catch(async () =>
        // The second of two concurrent clicks may wait for the first's transaction: it answers with the same batch.
        sendPayoutsFromDashboard(db(), finance, input, requestId),
      ),
    ]);
    expect(second.view.batchId).toBe(first.view.batchId);
    expect(await counts()).toEqual({ batches: before.batches + 1, audit: before.audit + 1 });
    const [batch] = await db().select().from(payoutBatches).where(eq(payoutBatches.id, first.view.batchId));
    expect(batch).toMatchObject({ apiKeyId: null, requestedBy: finance.member.id, itemCount: 3 });
    const [row] = await db().select().from(auditEvents).where(eq(auditEvents.targetId, first.view.batchId));
    expect(row).toMatchObject({ action: "payout.requested", actorUserId: finance.member.id, targetType: "payout_batch" });
    expect(row?.after).toEqual({ itemCount: 3, total: parseUnits("7.5", 18).toString(), tokenId: merchant.tokenId, status: "pending" });

    for (let round = 0; round < 10; round++) {
      await tendLedgerStep(db());
      const view = await getPayoutBatch(db(), { userId: merchant.userId }, first.view.batchId);
      if (view.status === "completed") break;
      await chain().client.mine({ blocks: 1 });
    }
    const view = await loadPayoutBatchPage(merchant.userId, first.view.batchId);
    expect(view.status).toBe("completed");
    expect(view.items.map((i) => [i.index, i.amount, i.reference, i.status])).toEqual([
      [0, "1.5", "inv-1", "completed"],
      [1, "2", null, "completed"],
      [2, "4", "inv-5", "completed"],
    ]);
    expect(await tokenBalance(chain().url, token, recipient(5))).toBe(parseUnits("4", 18));
    // The same form again, after it completed: still the one batch.
    expect((await sendPayoutsFromDashboard(db(), finance, input, requestId)).replayed).toBe(true);
    expect((await counts()).batches).toBe(before.batches + 1);

    const csv = await payoutItemsCsv(merchant.userId, first.view.batchId);
    expect(csv.split("\r\n")[0]).toBe("row,toAddress,amount,token,reference,status,txHash,failureReason,completedAt");
    expect(csv).toContain(",4,PAY,inv-5,completed,0x");

    const page = await listAccountPayoutBatches(db(), merchant.userId, { limit: 20 });
    expect(page.items[0]).toMatchObject({ batchId: first.view.batchId, source: "dashboard", counts: { completed: 3 } });
  });

  it("asks a member with two-factor on for a code before recording anything", async () => {
    const member = { ...owner, member: { ...owner.member, totpEnabledAt: new Date() } };
    const before = await counts();
    const input = { domainId: merchant.domainId, tokenId: merchant.tokenId, csv: `${recipient(9)},1` };
    const error = await failure(sendPayoutsFromDashboard(db(), member, input, randomUUID()));
    expect(error.reason).toBe("two-factor-code-required");
    expect(await counts()).toEqual(before);
  });

  it("shows another account's batch as not found: the page, the export and the list", async () => {
    const [batch] = await db().select().from(payoutBatches).where(eq(payoutBatches.userId, merchant.userId));
    if (!batch) throw new Error("a batch was sent above");
    const other = await setUpMerchant({ contractAddress: token, network: "bsc", domain: "https://third.example.com" });
    expect((await failure(loadPayoutBatchPage(other.userId, batch.id))).code).toBe("NOT_FOUND");
    expect((await failure(payoutItemsCsv(other.userId, batch.id))).code).toBe("NOT_FOUND");
    expect((await listAccountPayoutBatches(db(), other.userId, { limit: 20 })).items).toEqual([]);
    expect(await db().select().from(payoutItems).where(eq(payoutItems.batchId, batch.id))).toHaveLength(3);
  });

  it("above the account's approval threshold, records the batch awaiting approval with its request, and sends nothing", async () => {
    await setApprovalPolicy(db(), owner, merchant.tokenId, { perRequest: "5", perDay: null });
    const finance = await memberWith("finance");
    const csv = `${recipient(20)},3\n${recipient(21)},4`;
    const { view } = await sendPayoutsFromDashboard(
      db(),
      finance,
      { domainId: merchant.domainId, tokenId: merchant.tokenId, csv },
      randomUUID(),
    );
    expect(view).toMatchObject({ status: "awaiting_approval", total: "7", counts: { pending: 2, sending: 0 } });
    const [approval] = await db().select().from(approvals).where(eq(approvals.subjectId, view.batchId));
    expect(approval).toMatchObject({ kind: "payout", status: "awaiting_approval", requestedByUserId: finance.member.id });
    expect(await tokenBalance(chain().url, token, recipient(20))).toBe(0n);
  });
});
