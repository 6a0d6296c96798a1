/**
 * Claims only for the people meant to have them (deliverable 6), played by an insider
 * and a guesser on anvil: a refund's claim link carries a secret given once, to its creator; a
 * viewer reads the refund everywhere but never its link, so cannot claim it; a wrong or missing
 * secret is answered byte for byte as an unknown refund and counts against the client's limit;
 * a new link voids the old one and only the creator may issue it; a replay carries no link.
 */

import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as inbox } from "@/app/api/user/approvals/route";
import { GET as deliveriesRoute } from "@/app/api/user/domains/[id]/webhook-deliveries/route";
import { GET as refundsOf } from "@/app/api/v1/payment/[sessionId]/refunds/route";
import { POST as claimLink } from "@/app/api/v1/refund/[refundId]/claim-link/route";
import { GET as getRefund } from "@/app/api/v1/refund/[refundId]/route";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { asOwner } from "@/lib/accounts/members/principal";
import { auditEvents, refunds, webhookDeliveries } from "@/lib/db/schema";
import { issueClaimLink } from "@/lib/domain/refunds/claim-link";
import { hashClaimSecret } from "@/lib/domain/refunds/claim-secret";
import { refundFromDashboard } from "@/lib/domain/refunds/dashboard-refunds";
import { loadRefundClaim } from "@/lib/domain/refunds/payer-pages";
import { loadPaymentPage } from "@/lib/web/dashboard/payments/loaders";
import { resetRateLimits } from "@/lib/web/http/rate-limit";
import { call, fromClient, SITE } from "../helpers/http";
import { addMember, userRow } from "../helpers/insiders";
import {
  apiKey,
  claimLinkParts,
  claimPageReq,
  claimReq,
  countRows,
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
const INSIDER = "0x1111111111111111111111111111111111111111";

/** Every place a secret of `link` could leak: its secret and the link itself. */
function expectNoLink(what: string, seen: unknown, link: string) {
  const text = JSON.stringify(seen);
  const { secret } = claimLinkParts(link);
  expect(secret, "the link has a secret").toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(text.includes(secret as string), `${what} carries the claim secret`).toBe(false);
  expect(text, what).not.toMatch(/\/refund\/[0-9a-f-]{36}\?k=/);
}

beforeEach(async () => {
  await resetRateLimits();
});

describe("a viewer, reading everything a viewer can", () => {
  it("never sees a claim link, so cannot claim the payer's refund", async () => {
    const { sessionId } = await paidSession(shop, "10", "13");
    // One claim made with the API key, one on the dashboard by the owner.
    const byKey = await refundReq(shop, sessionId, { amount: "1" });
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(201);
    const owner = await userRow(db(), shop.merchant().userId);
    const byOwner = await refundFromDashboard(db(), asOwner(owner), sessionId, { amount: "2" }, randomUUID());
    const links = [byKey.body.data.claimUrl as string, byOwner.claimUrl as string];
    for (const link of links) expect(link).toMatch(/\?k=/);

    const viewer = await addMember(db(), shop.merchant().userId, "viewer", { twoFactor: false });
    const seen = {
      page: await loadPaymentPage(shop.merchant().userId, sessionId, viewer.userId),
      approvals: (await call(inbox, { headers: viewer.headers })).body,
      deliveries: (await call(deliveriesRoute, { headers: viewer.headers, params: { id: String(shop.merchant().domainId) } })).body,
      // What any key of the account reads: the list, one refund, and every webhook payload.
      list: (await call(refundsOf, { headers: apiKey(shop), params: { sessionId } })).body,
      one: (await call(getRefund, { headers: apiKey(shop), params: { refundId: byOwner.refundId } })).body,
      payloads: (await db().select({ payload: webhookDeliveries.payload }).from(webhookDeliveries)).map((d) => d.payload),
      audit: await db().select().from(auditEvents).where(eq(auditEvents.accountId, shop.merchant().userId)),
    };
    expect(seen.page.refunds.refunds).toHaveLength(2);
    expect(seen.page.refunds.refunds.every((r) => r.claimUrl === null && r.claimLinkIssued)).toBe(true);
    expect(seen.deliveries.success, JSON.stringify(seen.deliveries)).toBe(true);
    for (const link of links) for (const [what, value] of Object.entries(seen)) expectNoLink(what, value, link);

    // The insider's attempts: the id alone (the old link), the id with a made-up secret.
    const before = await countRows(db());
    for (const refundId of [byKey.body.data.refundId, byOwner.refundId]) {
      for (const forged of [`${SITE}/refund/${refundId}`, `${SITE}/refund/${refundId}?k=${"A".repeat(43)}`]) {
        const res = await claimReq(forged, INSIDER);
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: "NOT_FOUND", reason: "not-found" });
      }
    }
    expect(await countRows(db())).toEqual(before);
    const rows = await refundsOfSession(db(), sessionId);
    expect(rows.refunds.map((r) => [r.status, r.toAddress])).toEqual([
      ["awaiting_address", null],
      ["awaiting_address", null],
    ]);
    // The payer, who holds the link, still can.
    expect((await claimReq(links[0] as string, PAYER_NEW_ADDRESS)).status).toBe(200);
    await settleWithdrawals(shop);
  });
});

describe("a wrong or missing secret", () => {
  let link: string;
  let refundId: string;
  beforeAll(async () => {
    const { sessionId } = await paidSession(shop, "3", "3");
    const created = await refundReq(shop, sessionId, { amount: "1" });
    link = created.body.data.claimUrl;
    refundId = created.body.data.refundId;
  });

  it("is answered byte for byte as an unknown refund, on the claim and on the page's read", async () => {
    const unknown = `${SITE}/refund/${randomUUID()}?k=${claimLinkParts(link).secret}`;
    const wrong = `${SITE}/refund/${refundId}?k=${"B".repeat(43)}`;
    const missing = `${SITE}/refund/${refundId}`;
    const empty = `${SITE}/refund/${refundId}?k=`;
    const tooLong = `${SITE}/refund/${refundId}?k=${"C".repeat(5000)}`;
    const answers = [];
    for (const attempt of [unknown, wrong, missing, empty, tooLong]) {
      for (const res of [await claimReq(attempt, PAYER_NEW_ADDRESS), await claimPageReq(attempt)]) {
        expect(res.status).toBe(404);
        answers.push(JSON.stringify(res.body));
      }
    }
    expect(new Set(answers).size).toBe(1);
    expect(JSON.parse(answers[0] as string)).toEqual({
      success: false,
      error: { code: "NOT_FOUND", message: "refund not found", reason: "not-found" },
    });
    // The page itself: no such page, whichever part was wrong.
    for (const attempt of [unknown, wrong, missing]) {
      const { refundId: id, secret } = claimLinkParts(attempt);
      expect(await loadRefundClaim(db(), id, secret, "198.51.100.1")).toBeNull();
    }
    expect(await loadRefundClaim(db(), refundId, claimLinkParts(link).secret, "198.51.100.2")).toMatchObject({ refundId });
    const [row] = await db().select().from(refunds).where(eq(refunds.id, refundId));
    expect(row).toMatchObject({ status: "awaiting_address", toAddress: null, reason: null });
  });

  it("is limited like any claim: ten guesses a minute, then even the right secret waits (claim, read and page)", async () => {
    const guess = (i: number) => `${SITE}/refund/${refundId}?k=${String(i).padStart(43, "x")}`;
    const client = fromClient("203.0.113.77");
    const claims = [];
    for (let i = 0; i < 10; i++) claims.push((await claimReq(guess(i), PAYER_NEW_ADDRESS, client)).status);
    expect(claims).toEqual(Array(10).fill(404));
    const right = await claimReq(link, PAYER_NEW_ADDRESS, client);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await claimPageReq(link, client)).status).toBe(429);

    // Reads count only their refusals, and a client over the limit is refused before its secret is looked at.
    const reader = fromClient("203.0.113.78");
    for (let i = 0; i < 5; i++) expect((await claimPageReq(link, reader)).status).toBe(200);
    const reads = [];
    for (let i = 0; i < 10; i++) reads.push((await claimPageReq(guess(i), reader)).status);
    expect(reads).toEqual(Array(10).fill(404));
    expect((await claimPageReq(link, reader)).status).toBe(429);
    expect(await loadRefundClaim(db(), refundId, claimLinkParts(link).secret, "203.0.113.78")).toBeNull();
    // Another client is not held back.
    expect((await claimPageReq(link, fromClient("203.0.113.79"))).status).toBe(200);
    const [row] = await db().select().from(refunds).where(eq(refunds.id, refundId));
    expect(row?.status).toBe("awaiting_address");
  });
});

describe("a new claim link", () => {
  it("voids the old one; only the refund's creator issues it (any of their keys, or on the dashboard); audited without the link", async () => {
    const { sessionId } = await paidSession(shop, "4", "4");
    const created = await refundReq(shop, sessionId, { amount: "1" });
    const { refundId, claimUrl: first } = created.body.data;

    // Another key of the owner (the refund's creator) issues it.
    // (Made as the operator's tools make keys: a money key over the API needs its maker's two-factor, key-holders.test.ts.)
    const other = await createApiKey(db(), shop.merchant().userId, "second", { kind: "secret", scopes: ["refunds"] });
    const renewed = await call(claimLink, { method: "POST", headers: { "x-api-key": other.key }, params: { refundId } });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    const second = renewed.body.data.claimUrl as string;
    expect(second).toMatch(new RegExp(`/refund/${refundId}\\?k=[A-Za-z0-9_-]{43}$`));
    expect(second).not.toBe(first);
    expect((await claimPageReq(first)).status).toBe(404);
    expect((await claimPageReq(second)).status).toBe(200);
    // Nothing else changed: the deadline stays, the link's secret is kept only hashed.
    const [row] = await db().select().from(refunds).where(eq(refunds.id, refundId));
    expect(row).toMatchObject({ status: "awaiting_address", claimSecretHash: hashClaimSecret(claimLinkParts(second).secret ?? "") });
    expect(row?.claimExpiresAt.toISOString()).toBe(created.body.data.claimExpiresAt);

    // An admin's key reads the account's refunds, but did not create this one; a finance member on the dashboard neither.
    const admin = await addMember(db(), shop.merchant().userId, "admin", { twoFactor: false });
    // (Made as the key route records its maker: created_by, docs/design.md §26.)
    const adminKey = await createApiKey(
      db(),
      shop.merchant().userId,
      "admin's",
      { kind: "secret", scopes: ["refunds", "payments:write", "payouts"] },
      admin.userId,
    );
    const refused = await call(claimLink, { method: "POST", headers: { "x-api-key": adminKey.key }, params: { refundId } });
    expect(refused.status, JSON.stringify(refused.body)).toBe(404);
    // The key that made the payment (and so reads this refund) but belongs to the admin: told who may.
    const { sessionId: adminsSession } = await paidSession(shop, "2", "2", { "x-api-key": adminKey.key });
    const ownersRefund = await refundFromDashboard(
      db(),
      asOwner(await userRow(db(), shop.merchant().userId)),
      adminsSession,
      { amount: "1" },
      randomUUID(),
    );
    const told = await call(claimLink, {
      method: "POST",
      headers: { "x-api-key": adminKey.key },
      params: { refundId: ownersRefund.refundId },
    });
    expect(told.status, JSON.stringify(told.body)).toBe(403);
    expect(told.body.error.reason).toBe("refund-link-not-creator");
    const finance = await addMember(db(), shop.merchant().userId, "finance", { twoFactor: false });
    await expect(issueClaimLink(db(), { acting: await finance.principal(), code: undefined }, refundId)).rejects.toMatchObject({
      code: "FORBIDDEN",
      reason: "refund-link-not-creator",
    });
    // Another account's member: no such refund.
    const stranger = await addMember(db(), admin.userId, "finance", { twoFactor: false });
    await expect(issueClaimLink(db(), { acting: await stranger.principal(), code: undefined }, refundId)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const [unchanged] = await db().select().from(refunds).where(eq(refunds.id, refundId));
    expect(unchanged?.claimSecretHash).toBe(row?.claimSecretHash);

    // The payer uses the link that works.
    expect((await claimReq(first, PAYER_NEW_ADDRESS)).status).toBe(404);
    expect((await claimReq(second, PAYER_NEW_ADDRESS)).status).toBe(200);
    // Claimed: no new link any more; nothing changes.
    const late = await call(claimLink, { method: "POST", headers: apiKey(shop), params: { refundId } });
    expect(late.status).toBe(400);
    expect(late.body.error.reason).toBe("refund-link-unavailable");
    expect((await claimPageReq(second)).body.data).toMatchObject({ status: "sending", toAddress: PAYER_NEW_ADDRESS });

    const issued = await db().select().from(auditEvents).where(eq(auditEvents.action, "refund.claim_link_issued"));
    expect(issued.filter((e) => e.targetId === refundId)).toHaveLength(1);
    expect(JSON.stringify(issued)).not.toContain(claimLinkParts(second).secret);
    await settleWithdrawals(shop);
  });

  it("on the dashboard, asks the creator for their two-factor code as creating the refund did", async () => {
    const { sessionId } = await paidSession(shop, "2", "2");
    const creator = await addMember(db(), shop.merchant().userId, "finance");
    const made = await refundFromDashboard(db(), await creator.principal(), sessionId, { amount: "1" }, randomUUID(), creator.code());
    await expect(issueClaimLink(db(), { acting: await creator.principal(), code: undefined }, made.refundId)).rejects.toMatchObject({
      reason: "two-factor-code-required",
    });
    const [before] = await db().select().from(refunds).where(eq(refunds.id, made.refundId));
    expect(before?.claimSecretHash).toBe(hashClaimSecret(claimLinkParts(made.claimUrl ?? "").secret ?? ""));
    expect(before?.createdBy).toBe(creator.userId);
  });

  it("is issued for a claim made before links carried a secret, whose old link stopped working", async () => {
    const { sessionId } = await paidSession(shop, "2", "2");
    const created = await refundReq(shop, sessionId, { amount: "1" });
    const { refundId } = created.body.data;
    // As migration 0045 leaves it.
    await db().update(refunds).set({ claimSecretHash: null }).where(eq(refunds.id, refundId));
    expect((await call(getRefund, { headers: apiKey(shop), params: { refundId } })).body.data).toMatchObject({
      claimUrl: null,
      claimLinkIssued: false,
    });
    expect((await claimReq(`${SITE}/refund/${refundId}`, PAYER_NEW_ADDRESS)).status).toBe(404);
    expect((await claimPageReq(created.body.data.claimUrl)).status).toBe(404);
    const owner = await userRow(db(), shop.merchant().userId);
    const renewed = await issueClaimLink(db(), { acting: asOwner(owner), code: undefined }, refundId);
    expect(renewed).toMatchObject({ claimLinkIssued: true, claimUrl: expect.stringContaining("?k=") });
    expect((await claimPageReq(renewed.claimUrl as string)).body.data).toMatchObject({ status: "awaiting_address" });
  });
});

describe("an Idempotency-Key replay", () => {
  it("answers the refund without its link, and leaves the first link working", async () => {
    const { sessionId } = await paidSession(shop, "2", "2");
    const headers = { "idempotency-key": `claim-${sessionId}` };
    const first = await refundReq(shop, sessionId, { amount: "1" }, headers);
    const again = await refundReq(shop, sessionId, { amount: "1" }, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toMatchObject({ refundId: first.body.data.refundId, claimUrl: null, claimLinkIssued: true });
    expect((await claimPageReq(first.body.data.claimUrl)).status).toBe(200);
    // The answer stored for the key holds no secret.
    const { idempotencyRecords } = await import("@/lib/db/schema");
    const stored = JSON.stringify(await db().select().from(idempotencyRecords));
    expect(stored).not.toContain(claimLinkParts(first.body.data.claimUrl).secret);
  });
});

describe("claims at the same moment", () => {
  it("two claims with the valid secret to two addresses: exactly one wins, sent once", async () => {
    const { sessionId } = await paidSession(shop, "3", "3");
    const { claimUrl } = (await refundReq(shop, sessionId, { amount: "2" })).body.data;
    const results = await Promise.all([claimReq(claimUrl, PAYER_NEW_ADDRESS), claimReq(claimUrl, MERCHANT_WALLET)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const after = await refundsOfSession(db(), sessionId);
    expect(after.withdrawals).toHaveLength(1);
    expect(after.sent).toBe(units("2"));
    const winner = results.find((r) => r.status === 200)?.body.data.toAddress;
    expect(after.withdrawals[0]?.toAddress).toBe(winner);
    await settleWithdrawals(shop);
  });

  it("a claim racing the merchant's cancel: one outcome, never both", async () => {
    const { cancelRefund } = await import("@/lib/domain/refunds/cancel-refund");
    for (let i = 0; i < 3; i++) {
      const { sessionId } = await paidSession(shop, "2", "2");
      const { claimUrl, refundId } = (await refundReq(shop, sessionId, { amount: "1" })).body.data;
      const [claimed, cancelled] = await Promise.allSettled([
        claimReq(claimUrl, PAYER_NEW_ADDRESS),
        cancelRefund(db(), { apiKeyId: shop.merchant().apiKeyId }, refundId),
      ]);
      const after = await refundsOfSession(db(), sessionId);
      const claimWon = claimed.status === "fulfilled" && claimed.value.status === 200;
      const cancelWon = cancelled.status === "fulfilled";
      expect([claimWon, cancelWon].filter(Boolean)).toHaveLength(1);
      expect(after.refunds[0]?.status).toBe(claimWon ? "sending" : "cancelled");
      expect(after.withdrawals).toHaveLength(claimWon ? 1 : 0);
    }
    await settleWithdrawals(shop);
  });
});
