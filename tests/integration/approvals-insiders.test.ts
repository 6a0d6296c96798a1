/**
 * Two people means two people (#4): a request made with an API key is its creator's —
 * they cannot approve it, through any door — and an approval shows what the money does (where it
 * goes, the payment a refund belongs to, a payout's items) and approves exactly that: a code given
 * for one content does not approve another.
 */

import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { PUT as putPolicy } from "@/app/api/user/approval-policies/[tokenId]/route";
import { POST as approveRoute } from "@/app/api/user/approvals/[id]/approve/route";
import { GET as inbox } from "@/app/api/user/approvals/route";
import { POST as createPayouts } from "@/app/api/v1/payouts/route";
import { POST as send } from "@/app/api/v1/withdrawal/send/route";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { approvals, chainTransactions, webhookDeliveries, withdrawals } from "@/lib/db/schema";
import { addMember, type TestMember } from "../helpers/approvers";
import { call } from "../helpers/http";
import { paidSession, refundReq, settleWithdrawals, useRefundShop } from "../helpers/refunds";

vi.hoisted(() => {
  process.env.INNGEST_DEV = "1";
});

const shop = useRefundShop();
const db = () => shop.db();
const RECIPIENT = "0x2222222222222222222222222222222222222222";
const OTHER = "0x3333333333333333333333333333333333333333";
let admin: TestMember;
let finance: TestMember;
let adminKey: string;
let round = 0;

const approvalOf = async (subjectId: string) => (await db().select().from(approvals).where(eq(approvals.subjectId, subjectId)))[0]!;
const ledgerRows = async () => (await db().select({ id: chainTransactions.id }).from(chainTransactions)).length;
const approveAs = (who: TestMember, id: string, body: Record<string, unknown>) =>
  call(approveRoute, { method: "POST", headers: who.headers, params: { id }, body });
const withdraw = (key: string, amount: string) =>
  call(send, {
    method: "POST",
    headers: { "x-api-key": key, "idempotency-key": `insider-${++round}` },
    body: { domainId: shop.merchant().domainId, tokenId: shop.merchant().tokenId, toAddress: RECIPIENT, amount },
  });
const listed = async (who: TestMember, approvalId: string) =>
  (await call(inbox, { headers: who.headers, path: "/?status=awaiting_approval" })).body.data.items.find(
    (a: { approvalId: string }) => a.approvalId === approvalId,
  );

beforeAll(async () => {
  const res = await call(putPolicy, {
    method: "PUT",
    headers: shop.merchant().auth,
    params: { tokenId: String(shop.merchant().tokenId) },
    body: { perRequest: "40", perDay: null },
  });
  expect(res.status).toBe(200);
  admin = await addMember(db(), shop.merchant().userId, "admin");
  finance = await addMember(db(), shop.merchant().userId, "finance");
  adminKey = (await createApiKey(db(), shop.merchant().userId, "admin's key", undefined, admin.userId)).key;
});

describe("a request made with an API key is its creator's", () => {
  it("the admin who made the key cannot approve what it asked for, with their own code; another member can", async () => {
    const asked = await withdraw(adminKey, "50");
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    expect(asked.body.data.status).toBe("awaiting_approval");
    const approval = await approvalOf(asked.body.data.withdrawalId);
    expect(approval).toMatchObject({ requestedByUserId: admin.userId });
    const before = await ledgerRows();
    const own = await approveAs(admin, approval.id, { code: admin.code() });
    expect(own.status).toBe(403);
    expect(own.body.error.reason).toBe("approver-is-requester");
    expect(await ledgerRows()).toBe(before);
    const view = await listed(finance, approval.id);
    expect(view.requestedBy).toEqual({ userId: admin.userId, email: admin.email, apiKey: { id: expect.any(Number), name: "admin's key" } });
    const other = await approveAs(finance, approval.id, { code: finance.code(), contentHash: view.contentHash });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    await settleWithdrawals(shop);
  });

  it("a request recorded before keys had creators (only the key named) is its creator's too", async () => {
    const asked = await withdraw(adminKey, "51");
    const approval = await approvalOf(asked.body.data.withdrawalId);
    await db().update(approvals).set({ requestedByUserId: null }).where(eq(approvals.id, approval.id));
    const own = await approveAs(admin, approval.id, { code: admin.code() });
    expect(own.body.error?.reason).toBe("approver-is-requester");
    const view = await listed(finance, approval.id);
    expect(view.requestedBy).toMatchObject({ userId: admin.userId, email: admin.email });
  });
});

describe("an approval shows what the money does and approves exactly that", () => {
  it("shows a withdrawal's destination in the inbox and in approval.requested, and its content hash", async () => {
    const asked = await withdraw(shop.merchant().apiKey, "45");
    const approval = await approvalOf(asked.body.data.withdrawalId);
    const view = await listed(finance, approval.id);
    expect(view).toMatchObject({ kind: "withdrawal", toAddress: RECIPIENT, amount: "45", payment: null, items: null });
    expect(view.contentHash).toMatch(/^[0-9a-f]{64}$/);
    const [event] = (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventType, "approval.requested")))
      .map((d) => JSON.parse(d.payload))
      .filter((e) => e.data.approvalId === approval.id);
    expect(event.data).toMatchObject({ toAddress: RECIPIENT, contentHash: view.contentHash });
  });

  it("refuses a code given for other content, and a subject changed since it was asked for; nothing is sent", async () => {
    const asked = await withdraw(shop.merchant().apiKey, "46");
    const approval = await approvalOf(asked.body.data.withdrawalId);
    const shown = (await listed(finance, approval.id)).contentHash;
    const before = await ledgerRows();
    // Refused before any code is checked (so none is spent): the content is judged first.
    const wrong = await approveAs(finance, approval.id, { code: "000000", contentHash: "0".repeat(64) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.reason).toBe("approval-content-changed");
    // The destination changes under the approval (a bug or an insider with database access elsewhere).
    await db().update(withdrawals).set({ toAddress: OTHER }).where(eq(withdrawals.id, asked.body.data.withdrawalId));
    const changed = await approveAs(finance, approval.id, { code: "000000", contentHash: shown });
    expect(changed.status).toBe(400);
    expect(changed.body.error.reason).toBe("approval-content-changed");
    const blind = await approveAs(finance, approval.id, { code: "000000" });
    expect(blind.body.error.reason).toBe("approval-content-changed");
    expect(await ledgerRows()).toBe(before);
    expect((await approvalOf(asked.body.data.withdrawalId)).status).toBe("awaiting_approval");
    // Put back as asked: it approves, and the decision records the content the code confirmed.
    await db().update(withdrawals).set({ toAddress: RECIPIENT }).where(eq(withdrawals.id, asked.body.data.withdrawalId));
    // A code works once per 30 s step: another approver, fresh.
    const approver = await addMember(db(), shop.merchant().userId, "finance");
    const ok = await approveAs(approver, approval.id, { code: approver.code(), contentHash: shown });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await approvalOf(asked.body.data.withdrawalId)).toMatchObject({ status: "approved", approvedContentHash: shown });
    await settleWithdrawals(shop);
  });

  it("shows a refund's destination and its payment, and a payout batch's items", async () => {
    const { sessionId } = await paidSession(shop, "100", "100");
    const refund = await refundReq(shop, sessionId, { amount: "60", toAddress: RECIPIENT }, { "idempotency-key": `r-${++round}` });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const refundView = await listed(finance, (await approvalOf(refund.body.data.refundId)).id);
    expect(refundView).toMatchObject({ kind: "refund", toAddress: RECIPIENT, payment: { sessionId } });

    const items = Array.from({ length: 7 }, (_, i) => ({ toAddress: `0x${(0x44000 + i).toString(16).padStart(40, "0")}`, amount: "10" }));
    const batch = await call(createPayouts, {
      method: "POST",
      headers: { "x-api-key": shop.merchant().apiKey, "idempotency-key": `p-${++round}` },
      body: { domainId: shop.merchant().domainId, tokenId: shop.merchant().tokenId, items },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    expect(batch.body.data.status).toBe("awaiting_approval");
    const batchView = await listed(finance, (await approvalOf(batch.body.data.batchId)).id);
    expect(batchView).toMatchObject({ kind: "payout", amount: "70", toAddress: null, items: { count: 7 } });
    expect(batchView.items.first).toHaveLength(5);
    expect(batchView.items.first[0]).toEqual({ index: 0, toAddress: items[0]!.toAddress, amount: "10", reference: null });
  });
});
