/**
 * Approvals for money out (docs/design.md §24) on anvil: above the account's threshold a
 * withdrawal or refund waits `awaiting_approval` with nothing in the ledger; a second member with
 * `approve` and a two-factor code sends it exactly once; rejected or expired, it never reaches the ledger.
 */

import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { PUT as putPolicy } from "@/app/api/user/approval-policies/[tokenId]/route";
import { GET as getPolicies } from "@/app/api/user/approval-policies/route";
import { POST as approveRoute } from "@/app/api/user/approvals/[id]/approve/route";
import { POST as rejectRoute } from "@/app/api/user/approvals/[id]/reject/route";
import { GET as inbox } from "@/app/api/user/approvals/route";
import { POST as createPayouts } from "@/app/api/v1/payouts/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { asOwner } from "@/lib/accounts/members/principal";
import { formatAmount } from "@/lib/base/money";
import {
  approvals,
  auditEvents,
  chainTransactions,
  type MemberRole,
  payoutBatches,
  refunds,
  type User,
  users,
  webhookDeliveries,
  withdrawals,
} from "@/lib/db/schema";
import { approvalNeeded, moneyOutOfDay } from "@/lib/domain/approval-requests/approval-needed";
import { expireApprovals } from "@/lib/domain/approvals/decide";
import { countAwaiting } from "@/lib/domain/approvals/inbox";
import { sendWithdrawalFromDashboard } from "@/lib/domain/withdrawals/send";
import { availableToWithdraw } from "@/lib/domain/withdrawals/user-withdrawals";
import { addMember } from "../helpers/approvers";
import { tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { apiKey, PAYER_NEW_ADDRESS, paidSession, refundReq, settleWithdrawals, units, useRefundShop } from "../helpers/refunds";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const shop = useRefundShop();
const db = () => shop.db();
const RECIPIENT = "0x1111111111111111111111111111111111111111";
let requestCounter = 0;

const userOf = async (id: number): Promise<User> => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const inAccount = (auth: Record<string, string>) => ({ ...auth, "x-account-id": String(shop.merchant().userId) });

/** A member of the shop's account with `role`, with two-factor on unless `twoFactor` is false. */
const member = (role: MemberRole, twoFactor = true) => addMember(db(), shop.merchant().userId, role, twoFactor);

async function setPolicy(perRequest: string | null, perDay: string | null) {
  const res = await call(putPolicy, {
    method: "PUT",
    headers: shop.merchant().auth,
    params: { tokenId: String(shop.merchant().tokenId) },
    body: { perRequest, perDay },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** The owner sends from the dashboard (the owner is the requester). */
async function ownerSends(amount: string) {
  const owner = await userOf(shop.merchant().userId);
  const { view } = await sendWithdrawalFromDashboard(
    db(),
    asOwner(owner),
    { domainId: shop.merchant().domainId, tokenId: shop.merchant().tokenId, toAddress: RECIPIENT as `0x${string}`, amount },
    `form-${++requestCounter}`,
  );
  return view;
}

const approvalOf = async (subjectId: string) => (await db().select().from(approvals).where(eq(approvals.subjectId, subjectId)))[0]!;
const withdrawalRow = async (id: string) => (await db().select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;
/** Withdrawal transactions in the ledger (a gas top-up of the wallet is a ledger row of its own). */
const ledgerRows = async () =>
  (await db().select({ id: chainTransactions.id }).from(chainTransactions).where(eq(chainTransactions.kind, "withdrawal"))).length;
const eventsOf = async (type: string) => db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventType, type));
const approveAs = (who: { headers: Record<string, string> }, id: string, code?: string) =>
  call(approveRoute, { method: "POST", headers: who.headers, params: { id }, body: code === undefined ? {} : { code } });

describe("approvals of withdrawals", () => {
  beforeAll(async () => {
    await setPolicy("100", null);
  });

  it("lists the thresholds and refuses a per-day limit below the per-request one, changing nothing", async () => {
    const bad = await call(putPolicy, {
      method: "PUT",
      headers: shop.merchant().auth,
      params: { tokenId: String(shop.merchant().tokenId) },
      body: { perRequest: "100", perDay: "50" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reason).toBe("approval-limit-invalid");
    const listed = await call(getPolicies, { headers: shop.merchant().auth });
    expect(listed.body.data.items.find((p: { tokenId: number }) => p.tokenId === shop.merchant().tokenId)).toMatchObject({
      perRequest: "100",
      perDay: null,
    });
  });

  it("a withdrawal above the per-request threshold waits: no ledger row, no nonce, balances unchanged, approval.requested", async () => {
    const ledgerBefore = await ledgerRows();
    const walletBefore = await tokenBalance(shop.chain().url, shop.token(), shop.wallet());
    const available = () => availableToWithdraw(db(), shop.merchant().userId, shop.merchant().domainId, shop.merchant().tokenId);
    const shownBefore = await available();
    expect(shownBefore.approval).toEqual({ perRequest: "100", leftToday: null });
    const view = await ownerSends("150");
    expect(view).toMatchObject({ status: "awaiting_approval", txHash: null, amount: "150" });
    const row = await withdrawalRow(view.withdrawalId);
    expect(row).toMatchObject({ status: "awaiting_approval", nonce: null, chainTxId: null, gasLimit: null });
    expect(await ledgerRows()).toBe(ledgerBefore);
    expect(await tokenBalance(shop.chain().url, shop.token(), shop.wallet())).toBe(walletBefore);
    // The form's Available leaves out what waits for approval from the wallet, and says what waits above.
    const shownAfter = await available();
    expect(units(shownAfter.awaitingApproval) - units(shownBefore.awaitingApproval)).toBe(units("150"));
    const held = units(shownAfter.reserved) + units(shownAfter.awaitingApproval);
    expect(held).toBeGreaterThanOrEqual(units("150"));
    expect(units(shownAfter.available ?? "")).toBe(walletBefore > held ? walletBefore - held : 0n);
    expect(shownAfter.approval).toEqual({ perRequest: "100", leftToday: null });
    const approval = await approvalOf(view.withdrawalId);
    expect(approval).toMatchObject({ kind: "withdrawal", status: "awaiting_approval", amount: units("150") });
    expect(approval.id).toMatch(/^apr_[0-9a-f]{24}$/);
    expect(approval.expiresAt.getTime() - approval.createdAt.getTime()).toBe(72 * 3600 * 1000);
    const requested = await eventsOf("approval.requested");
    expect(requested.map((d) => JSON.parse(d.payload).data.approvalId)).toContain(approval.id);
    expect(await countAwaiting(db(), shop.merchant().userId)).toBeGreaterThanOrEqual(1);
    const listed = await call(inbox, { headers: shop.merchant().auth, path: "/?status=awaiting_approval" });
    expect(listed.body.data.items.map((a: { approvalId: string }) => a.approvalId)).toContain(approval.id);
  });

  it("the requester cannot approve their own; viewers and developers cannot approve at all; an approver without two-factor is refused", async () => {
    const view = await ownerSends("120");
    const approval = await approvalOf(view.withdrawalId);
    const own = await approveAs({ headers: inAccount(shop.merchant().auth) }, approval.id);
    expect(own.status).toBe(403);
    expect(own.body.error.reason).toBe("approver-is-requester");
    for (const role of ["viewer", "developer"] as const) {
      const res = await approveAs(await member(role, false), approval.id, "123456");
      expect(res.status).toBe(403);
      expect(res.body.error.reason).toBe("role-forbids");
    }
    const noTwoFactor = await approveAs(await member("finance", false), approval.id);
    expect(noTwoFactor.status).toBe(403);
    expect(noTwoFactor.body.error.reason).toBe("approver-needs-two-factor");
    const finance = await member("finance");
    const wrong = await approveAs(finance, approval.id, "000000");
    expect(wrong.status).toBe(400);
    expect((await withdrawalRow(view.withdrawalId)).status).toBe("awaiting_approval");
    expect((await approvalOf(view.withdrawalId)).status).toBe("awaiting_approval");
  });

  it("two members approving at once send it exactly once, then it completes like any withdrawal", async () => {
    const view = await ownerSends("130");
    const approval = await approvalOf(view.withdrawalId);
    const [finance, admin] = [await member("finance"), await member("admin")];
    const ledgerBefore = await ledgerRows();
    const recipientBefore = await tokenBalance(shop.chain().url, shop.token(), RECIPIENT as `0x${string}`);
    const answers = await Promise.all([approveAs(finance, approval.id, finance.code()), approveAs(admin, approval.id, admin.code())]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const won = answers.find((a) => a.status === 200)!;
    expect(won.body.data).toMatchObject({ approval: { status: "approved" }, subject: { status: "submitted" } });
    expect(answers.find((a) => a.status === 400)!.body.error.reason).toBe("approval-decided");
    expect(await ledgerRows()).toBe(ledgerBefore + 1);
    const row = await withdrawalRow(view.withdrawalId);
    expect(row.status).toBe("submitted");
    expect(row.nonce).not.toBeNull();
    await settleWithdrawals(shop);
    expect((await withdrawalRow(view.withdrawalId)).status).toBe("completed");
    expect(await tokenBalance(shop.chain().url, shop.token(), RECIPIENT as `0x${string}`)).toBe(recipientBefore + units("130"));
    const approved = await eventsOf("approval.approved");
    expect(approved.map((d) => JSON.parse(d.payload).data)).toContainEqual(
      expect.objectContaining({
        approvalId: approval.id,
        kind: "withdrawal",
        subjectId: view.withdrawalId,
        amount: "130",
        status: "approved",
      }),
    );
  });

  it("a rejected withdrawal never reaches the ledger, and cannot be approved afterwards", async () => {
    const view = await ownerSends("140");
    const approval = await approvalOf(view.withdrawalId);
    const ledgerBefore = await ledgerRows();
    const finance = await member("finance");
    const rejected = await call(rejectRoute, {
      method: "POST",
      headers: finance.headers,
      params: { id: approval.id },
      body: { reason: "not agreed" },
    });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.data).toMatchObject({ approval: { status: "rejected", reason: "not agreed" }, subject: { status: "rejected" } });
    expect(await withdrawalRow(view.withdrawalId)).toMatchObject({ status: "rejected", chainTxId: null });
    const late = await approveAs(await member("admin"), approval.id, undefined);
    expect(late.body.error.reason).toBe("approval-decided");
    expect(await ledgerRows()).toBe(ledgerBefore);
    expect((await eventsOf("approval.rejected")).map((d) => JSON.parse(d.payload).data.approvalId)).toContain(approval.id);
  });

  it("the requester may withdraw their own request (rejected)", async () => {
    const view = await ownerSends("141");
    const approval = await approvalOf(view.withdrawalId);
    const own = await call(rejectRoute, {
      method: "POST",
      headers: inAccount(shop.merchant().auth),
      params: { id: approval.id },
      body: {},
    });
    expect(own.body.data.approval).toMatchObject({ status: "rejected", reason: "withdrawn by the requester" });
  });

  it("after 72 h nobody approved it: expired by the job, the withdrawal rejected, nothing in the ledger", async () => {
    const view = await ownerSends("142");
    const approval = await approvalOf(view.withdrawalId);
    const ledgerBefore = await ledgerRows();
    await expireApprovals(db(), new Date(approval.expiresAt.getTime() - 1));
    expect(await approvalOf(view.withdrawalId)).toMatchObject({ status: "awaiting_approval" });
    expect(await expireApprovals(db(), new Date(approval.expiresAt.getTime()))).toBeGreaterThanOrEqual(1);
    expect(await approvalOf(view.withdrawalId)).toMatchObject({ status: "expired" });
    expect(await withdrawalRow(view.withdrawalId)).toMatchObject({ status: "rejected", failureReason: "its approval expired" });
    expect(await ledgerRows()).toBe(ledgerBefore);
  });

  it("an API-key withdrawal above the threshold answers 201 awaiting_approval, replays with its key, and approval.approved follows", async () => {
    const headers = { "x-api-key": shop.merchant().apiKey, "idempotency-key": "big-one-1" };
    const body = { domainId: shop.merchant().domainId, tokenId: shop.merchant().tokenId, toAddress: RECIPIENT, amount: "150" };
    const first = await call(send, { method: "POST", headers, body });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data.status).toBe("awaiting_approval");
    const again = await call(send, { method: "POST", headers, body });
    expect(again.body.data.withdrawalId).toBe(first.body.data.withdrawalId);
    expect(
      (await db().select().from(withdrawals).where(eq(withdrawals.apiKeyId, shop.merchant().apiKeyId))).filter(
        (w) => w.status === "awaiting_approval",
      ),
    ).toHaveLength(1);
    const approval = await approvalOf(first.body.data.withdrawalId);
    // A request made with a key is its creator's (here the owner, who made the shop's key): another member approves it.
    expect(approval).toMatchObject({ requestedByUserId: shop.merchant().userId, requestedByApiKeyId: shop.merchant().apiKeyId });
    const finance = await member("finance");
    const res = await approveAs(finance, approval.id, finance.code());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await eventsOf("approval.approved")).map((d) => JSON.parse(d.payload).data.approvalId)).toContain(approval.id);
    await settleWithdrawals(shop);
    expect((await withdrawalRow(first.body.data.withdrawalId)).status).toBe("completed");
  });
});

describe("the per-day threshold", () => {
  it("counts the day's money out: the request that takes it above the limit waits", async () => {
    await setPolicy(null, "1000000");
    const today = new Date();
    const before = await approvalNeeded(db(), shop.merchant().userId, shop.merchant().tokenId, 1n, today);
    expect(before.needed).toBe(false);
    // What went out today (sent and waiting ones), then a limit just above it.
    const base = await (await import("@/lib/domain/approval-requests/approval-needed")).moneyOutOfDay(
      db(),
      shop.merchant().userId,
      shop.merchant().tokenId,
      today,
    );
    const limit = base + units("50");
    const human = (limit / 10n ** 18n).toString();
    await setPolicy(null, human);
    const first = await ownerSends("30");
    expect(first.status).toBe("submitted");
    const second = await ownerSends("30");
    expect(second.status).toBe("awaiting_approval");
    await settleWithdrawals(shop);
    // Tomorrow (UTC) the day starts again.
    const tomorrow = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1, 0, 0, 1));
    expect((await approvalNeeded(db(), shop.merchant().userId, shop.merchant().tokenId, units("30"), tomorrow)).needed).toBe(false);
    await setPolicy("100", null);
  });

  it("lets one of concurrent requests under the limit: the others wait, withdrawals and payouts alike", async () => {
    const { userId, tokenId, domainId, apiKey: key } = shop.merchant();
    const base = await moneyOutOfDay(db(), userId, tokenId, new Date());
    await setPolicy(null, formatAmount(base + units("50"), 18));
    const body = { domainId, tokenId, toAddress: RECIPIENT, amount: "30" };
    const sends = [1, 2, 3, 4].map((i) =>
      call(send, { method: "POST", headers: { "x-api-key": key, "idempotency-key": `day-race-${i}` }, body }),
    );
    const batch = call(createPayouts, {
      method: "POST",
      headers: { "x-api-key": key, "idempotency-key": "day-race-batch" },
      body: { domainId, tokenId, items: [{ toAddress: RECIPIENT, amount: "30", reference: "race" }] },
    });
    const answers = await Promise.all([...sends, batch]);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const going = answers.filter((answer) => answer.body.data.status !== "awaiting_approval");
    expect(going).toHaveLength(1);
    const subjects = answers.map((answer) => answer.body.data.withdrawalId ?? answer.body.data.batchId);
    const waiting = await db()
      .select()
      .from(approvals)
      .where(and(inArray(approvals.subjectId, subjects), eq(approvals.status, "awaiting_approval")));
    expect(waiting).toHaveLength(4);
    // Rejected, they leave nothing reserved for the tests after.
    const finance = await member("finance");
    for (const approval of waiting) {
      const rejected = await call(rejectRoute, { method: "POST", headers: finance.headers, params: { id: approval.id }, body: {} });
      expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    }
    await settleWithdrawals(shop);
    await setPolicy("100", null);
  });
});

describe("approvals of refunds", () => {
  it("a refund above the threshold waits unclaimable and unsent, then is sent once approved", async () => {
    const { sessionId } = await paidSession(shop, "200", "200");
    const res = await refundReq(shop, sessionId, { amount: "150", toAddress: PAYER_NEW_ADDRESS });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.status).toBe("awaiting_approval");
    const refundId = res.body.data.refundId;
    expect(await db().select().from(withdrawals).where(eq(withdrawals.refundId, refundId))).toEqual([]);
    expect((await eventsOf("refund.created")).map((d) => JSON.parse(d.payload).data.refundId)).not.toContain(refundId);
    const approval = await approvalOf(refundId);
    expect(approval).toMatchObject({ kind: "refund", amount: units("150") });
    const before = await tokenBalance(shop.chain().url, shop.token(), PAYER_NEW_ADDRESS);
    const finance = await member("finance");
    const ok = await approveAs(finance, approval.id, finance.code());
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.subject.status).toBe("sending");
    await settleWithdrawals(shop);
    const [refund] = await db().select().from(refunds).where(eq(refunds.id, refundId));
    expect(refund?.status).toBe("completed");
    expect(await tokenBalance(shop.chain().url, shop.token(), PAYER_NEW_ADDRESS)).toBe(before + units("150"));
    expect((await eventsOf("refund.created")).map((d) => JSON.parse(d.payload).data.refundId)).toContain(refundId);
  });

  it("a rejected refund is final and never sent; its amount is free again", async () => {
    const { sessionId } = await paidSession(shop, "200", "200");
    const res = await refundReq(shop, sessionId, { amount: "150", toAddress: PAYER_NEW_ADDRESS });
    expect(res.body.data.status).toBe("awaiting_approval");
    const approval = await approvalOf(res.body.data.refundId);
    const finance = await member("finance");
    const rejected = await call(rejectRoute, { method: "POST", headers: finance.headers, params: { id: approval.id }, body: {} });
    expect(rejected.body.data.subject.status).toBe("rejected");
    const [refund] = await db()
      .select()
      .from(refunds)
      .where(and(eq(refunds.id, res.body.data.refundId)));
    expect(refund?.status).toBe("rejected");
    expect(await db().select().from(withdrawals).where(eq(withdrawals.refundId, res.body.data.refundId))).toEqual([]);
    // Below the threshold, the rest of the payment can still be refunded.
    const small = await refundReq(shop, sessionId, { amount: "90" }, apiKey(shop));
    expect(small.body.data.status).toBe("awaiting_address");
  });
});

describe("approvals of payouts", () => {
  const RECIPIENTS = ["0x2222222222222222222222222222222222222222", "0x3333333333333333333333333333333333333333"] as const;
  const payoutLedgerRows = async () =>
    (await db().select({ id: chainTransactions.id }).from(chainTransactions).where(eq(chainTransactions.kind, "payout"))).length;
  const batchOf = async (id: string) => (await db().select().from(payoutBatches).where(eq(payoutBatches.id, id)))[0]!;
  const createBatch = (key: string) =>
    call(createPayouts, {
      method: "POST",
      headers: { ...apiKey(shop), "idempotency-key": key },
      body: {
        domainId: shop.merchant().domainId,
        tokenId: shop.merchant().tokenId,
        items: RECIPIENTS.map((toAddress, i) => ({ toAddress, amount: "60", reference: `pay-${i}` })),
      },
    });

  beforeAll(async () => {
    await setPolicy("100", null);
  });

  it("a batch above the threshold waits with nothing in the ledger; a second member's approval pays every recipient once", async () => {
    const ledgerBefore = await payoutLedgerRows();
    const created = await createBatch("batch-approve");
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.status).toBe("awaiting_approval");
    const approval = await approvalOf(created.body.data.batchId);
    expect(approval).toMatchObject({ kind: "payout", amount: units("120"), requestedByApiKeyId: shop.merchant().apiKeyId });
    expect(await payoutLedgerRows()).toBe(ledgerBefore);
    const before = await Promise.all(RECIPIENTS.map((r) => tokenBalance(shop.chain().url, shop.token(), r)));

    const finance = await member("finance");
    const approved = await approveAs(finance, approval.id, finance.code());
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.approval.status).toBe("approved");
    expect((await batchOf(created.body.data.batchId)).status).not.toBe("awaiting_approval");
    expect(await payoutLedgerRows()).toBe(ledgerBefore + 1);
    await settleWithdrawals(shop);
    const after = await Promise.all(RECIPIENTS.map((r) => tokenBalance(shop.chain().url, shop.token(), r)));
    expect(after).toEqual(before.map((b) => b + units("60")));
    const again = await approveAs(await member("admin"), approval.id, undefined);
    expect(again.body.error.reason).toBe("approval-decided");
  });

  it("a rejected batch never reaches the ledger: its items fail, nothing is paid", async () => {
    const ledgerBefore = await payoutLedgerRows();
    const created = await createBatch("batch-reject");
    const approval = await approvalOf(created.body.data.batchId);
    const finance = await member("finance");
    const rejected = await call(rejectRoute, {
      method: "POST",
      headers: finance.headers,
      params: { id: approval.id },
      body: { reason: "no" },
    });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect((await batchOf(created.body.data.batchId)).status).toBe("rejected");
    expect(await payoutLedgerRows()).toBe(ledgerBefore);
  });
});

describe("the audit log of money out", () => {
  it("records each request, approval, rejection and expiry above with the member, the API key or the service that did it", async () => {
    const log = await db().select().from(auditEvents).where(eq(auditEvents.accountId, shop.merchant().userId));
    const actorsOf = (action: string) => new Set(log.filter((e) => e.action === action).map((e) => e.actorKind));
    const owner = await userOf(shop.merchant().userId);
    expect(log.some((e) => e.action === "approval_policy.changed" && e.actorLabel === owner.email)).toBe(true);
    expect(log.some((e) => e.action === "withdrawal.requested" && e.actorLabel === owner.email)).toBe(true);
    expect(actorsOf("withdrawal.requested")).toEqual(new Set(["user", "api_key"]));
    expect(actorsOf("withdrawal.approved")).toEqual(new Set(["user"]));
    expect(actorsOf("withdrawal.rejected")).toEqual(new Set(["user", "system"]));
    expect(actorsOf("refund.requested").has("api_key")).toBe(true);
    expect(actorsOf("refund.approved")).toEqual(new Set(["user"]));
    expect(actorsOf("payout.requested")).toEqual(new Set(["api_key"]));
    expect(actorsOf("payout.approved")).toEqual(new Set(["user"]));
    expect(actorsOf("payout.rejected")).toEqual(new Set(["user"]));
    // An approval is never recorded under the requester: the approver's label differs.
    for (const approved of log.filter((e) => e.action === "withdrawal.approved")) expect(approved.actorLabel).not.toBe(owner.email);
  });
});
