/**
 * A refund above the approval threshold is approved with its destination (deliverable
 * 6; docs/design.md §26): made without an address, its claim opens first and the payer's claimed
 * address goes to a second member before anything is signed; approving sends to exactly that
 * address. Two claims at once ask for one approval; a rejection sends nothing. A refund asked for
 * before this rule (awaiting approval without an address, or approved and waiting for a claim)
 * is never sent unapproved.
 */

import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PUT as putPolicy } from "@/app/api/user/approval-policies/[tokenId]/route";
import { POST as approveRoute } from "@/app/api/user/approvals/[id]/approve/route";
import { POST as rejectRoute } from "@/app/api/user/approvals/[id]/reject/route";
import { POST as claimLink } from "@/app/api/v1/refund/[refundId]/claim-link/route";
import { approvals, chainTransactions, refunds, withdrawals } from "@/lib/db/schema";
import { approvalContent } from "@/lib/domain/approval-requests/content";
import { tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";
import { addMember } from "../helpers/insiders";
import {
  apiKey,
  claimPageReq,
  claimReq,
  MERCHANT_WALLET,
  PAYER_NEW_ADDRESS,
  paidSession,
  refundReq,
  refundsOfSession,
  settleWithdrawals,
  units,
  useRefundShop,
} from "../helpers/refunds";

const shop = useRefundShop();
const db = () => shop.db();

const approvalsOf = (refundId: string) => db().select().from(approvals).where(eq(approvals.subjectId, refundId));
const ledgerRows = async () => (await db().select({ id: chainTransactions.id }).from(chainTransactions)).length;

beforeAll(async () => {
  const res = await call(putPolicy, {
    method: "PUT",
    headers: shop.merchant().auth,
    params: { tokenId: String(shop.merchant().tokenId) },
    body: { perRequest: "100", perDay: null },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});

describe("a claim refund above the approval threshold", () => {
  it("opens its claim; the payer's address goes to approval, nothing is signed; approving sends to exactly that address", async () => {
    const { sessionId } = await paidSession(shop, "200", "200");
    const created = await refundReq(shop, sessionId, { amount: "150" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { refundId, claimUrl } = created.body.data;
    expect(created.body.data).toMatchObject({ status: "awaiting_address", toAddress: null, claimLinkIssued: true });
    expect(claimUrl).toMatch(/\?k=/);
    expect(await approvalsOf(refundId)).toEqual([]);

    const ledger = await ledgerRows();
    const claimed = await claimReq(claimUrl, PAYER_NEW_ADDRESS);
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body.data).toMatchObject({ status: "awaiting_approval", toAddress: PAYER_NEW_ADDRESS, addressFrom: "payer" });
    // Nothing reserved, recorded or signed.
    expect(await ledgerRows()).toBe(ledger);
    expect(await db().select().from(withdrawals).where(eq(withdrawals.refundId, refundId))).toEqual([]);
    // The payer's page says it waits for the shop; a second claim cannot change the address.
    expect((await claimPageReq(claimUrl)).body.data).toMatchObject({ status: "awaiting_approval", toAddress: PAYER_NEW_ADDRESS });
    const again = await claimReq(claimUrl, MERCHANT_WALLET);
    expect(again.status).toBe(400);
    expect(again.body.error.reason).toBe("refund-not-claimable");

    // The approval names the refund's creator (the API key) and moves exactly this.
    const [approval] = await approvalsOf(refundId);
    expect(approval).toMatchObject({ kind: "refund", amount: units("150"), requestedByApiKeyId: shop.merchant().apiKeyId });
    expect(await approvalContent(db(), approval!)).toMatchObject({
      toAddress: PAYER_NEW_ADDRESS,
      payment: { sessionId, orderId: expect.stringMatching(/^ORD-/) },
      amount: units("150"),
      token: { symbol: "RFD", id: shop.merchant().tokenId, network: "bsc" },
      hash: approval!.contentHash,
    });

    const before = await tokenBalance(shop.chain().url, shop.token(), PAYER_NEW_ADDRESS);
    const finance = await addMember(db(), shop.merchant().userId, "finance");
    const approved = await call(approveRoute, {
      method: "POST",
      headers: finance.headers,
      params: { id: approval!.id },
      body: { code: finance.code() },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.subject.status).toBe("sending");
    const [withdrawal] = await db().select().from(withdrawals).where(eq(withdrawals.refundId, refundId));
    expect(withdrawal).toMatchObject({ toAddress: PAYER_NEW_ADDRESS, amount: units("150") });
    await settleWithdrawals(shop);
    expect(await tokenBalance(shop.chain().url, shop.token(), PAYER_NEW_ADDRESS)).toBe(before + units("150"));
    expect((await claimPageReq(claimUrl)).body.data).toMatchObject({ status: "completed" });
  });

  it("two claims at once to two addresses: one goes to approval, one approval; the other is refused", async () => {
    const { sessionId } = await paidSession(shop, "200", "200");
    const { refundId, claimUrl } = (await refundReq(shop, sessionId, { amount: "120" })).body.data;
    const results = await Promise.all([claimReq(claimUrl, PAYER_NEW_ADDRESS), claimReq(claimUrl, MERCHANT_WALLET)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results.find((r) => r.status === 200)?.body.data.toAddress;
    expect(await approvalsOf(refundId)).toHaveLength(1);
    const [row] = await db().select().from(refunds).where(eq(refunds.id, refundId));
    expect(row).toMatchObject({ status: "awaiting_approval", toAddress: winner });
  });

  it("rejected: final, nothing sent, the payer's page says it is no longer available", async () => {
    const { sessionId } = await paidSession(shop, "200", "200");
    const { refundId, claimUrl } = (await refundReq(shop, sessionId, { amount: "150" })).body.data;
    expect((await claimReq(claimUrl, PAYER_NEW_ADDRESS)).status).toBe(200);
    const [approval] = await approvalsOf(refundId);
    const finance = await addMember(db(), shop.merchant().userId, "finance", { twoFactor: false });
    const rejected = await call(rejectRoute, { method: "POST", headers: finance.headers, params: { id: approval!.id }, body: {} });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    const after = await refundsOfSession(db(), sessionId);
    expect(after.refunds[0]).toMatchObject({ status: "rejected" });
    expect(after.withdrawals).toEqual([]);
    expect((await claimPageReq(claimUrl)).body.data).toMatchObject({ status: "rejected" });
  });
});

describe("a refund asked for before destinations were approved", () => {
  it("awaiting approval without an address: approving it is refused and changes nothing; it can be rejected", async () => {
    const { sessionId } = await paidSession(shop, "200", "200");
    const { refundId } = (await refundReq(shop, sessionId, { amount: "150", toAddress: PAYER_NEW_ADDRESS })).body.data;
    // As the old code left it: waiting for approval with no address.
    await db().update(refunds).set({ toAddress: null, addressFrom: null }).where(eq(refunds.id, refundId));
    // …and its approval without a content hash (asked for before approvals had one).
    await db().update(approvals).set({ contentHash: null }).where(eq(approvals.subjectId, refundId));
    const [approval] = await approvalsOf(refundId);
    const finance = await addMember(db(), shop.merchant().userId, "finance");
    const ledger = await ledgerRows();
    const refused = await call(approveRoute, {
      method: "POST",
      headers: finance.headers,
      params: { id: approval!.id },
      body: { code: finance.code() },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.reason).toBe("refund-approval-without-address");
    expect(await ledgerRows()).toBe(ledger);
    const [row] = await db().select().from(refunds).where(eq(refunds.id, refundId));
    expect(row).toMatchObject({ status: "awaiting_approval", toAddress: null });
    const [still] = await approvalsOf(refundId);
    expect(still?.status).toBe("awaiting_approval");
    const rejected = await call(rejectRoute, { method: "POST", headers: finance.headers, params: { id: approval!.id }, body: {} });
    expect(rejected.body.data.subject.status).toBe("rejected");
  });

  it("approved for its amount and waiting for a claim: no new link is issued for it", async () => {
    const { sessionId } = await paidSession(shop, "200", "200");
    const { refundId } = (await refundReq(shop, sessionId, { amount: "150", toAddress: PAYER_NEW_ADDRESS })).body.data;
    // As the old code left an approved claim: awaiting_address, no address, no secret (0045), its approval approved.
    await db()
      .update(refunds)
      .set({ status: "awaiting_address", toAddress: null, addressFrom: null, claimSecretHash: null })
      .where(eq(refunds.id, refundId));
    await db()
      .update(approvals)
      .set({ status: "approved", decidedAt: new Date() })
      .where(and(eq(approvals.subjectId, refundId), eq(approvals.kind, "refund")));
    const refused = await call(claimLink, { method: "POST", headers: apiKey(shop), params: { refundId } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.reason).toBe("refund-approval-without-address");
    const [row] = await db().select().from(refunds).where(eq(refunds.id, refundId));
    expect(row?.claimSecretHash).toBeNull();
    // The merchant cancels it and makes it again: then the payer's address comes to approval.
    const { cancelRefund } = await import("@/lib/domain/refunds/cancel-refund");
    expect((await cancelRefund(db(), { apiKeyId: shop.merchant().apiKeyId }, refundId)).status).toBe("cancelled");
    const again = await refundReq(shop, sessionId, { amount: "150" }, { "idempotency-key": randomUUID() });
    expect(again.body.data).toMatchObject({ status: "awaiting_address", claimLinkIssued: true });
  });
});
