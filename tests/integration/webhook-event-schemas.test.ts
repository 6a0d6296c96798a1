import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { parseUnits } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import {
  chainTransactions,
  type Domain,
  deposits,
  domains,
  paymentSessions,
  payoutItems,
  refunds,
  sessionQuotes,
  tokens,
  users,
  webhookDeliveries,
  withdrawals,
} from "@/lib/db/schema";
import { applyApprovalFact, requestApproval } from "@/lib/domain/approval-requests/approval-records";
import { cancelPayoutChange, requestPayoutChange } from "@/lib/domain/merchant-domains/payout-change";
import { EVENT_TYPES } from "@/lib/domain/notifications/events";
import { enqueueSessionEvents } from "@/lib/domain/payments/session-events";
import { applyItemFacts, insertPayoutBatch } from "@/lib/domain/payouts/payout-records";
import { enqueueRefundEvent } from "@/lib/domain/refunds/refund-events";
import { queuePing } from "@/lib/domain/webhooks/deliveries";
import { syncEndpoint } from "@/lib/domain/webhooks/endpoints";
import { enqueueWithdrawalEvent } from "@/lib/domain/withdrawals/withdrawal-events";
import { insertAwaitingWithdrawal } from "@/lib/domain/withdrawals/withdrawal-records";
import { familyOf, webhookEventSchema } from "@/lib/web/openapi/webhook-events";
import { WEBHOOK_EXAMPLES } from "@/lib/web/openapi/webhooks";
import { useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";

/**
 * The webhook schemas of the OpenAPI document (and so of the SDK's event types) against the events
 * the product really writes: every event type is written through the code that sends it, into the
 * outbox, and each payload must parse with its schema and lose nothing in the parse (a field the
 * code adds and the schema lacks fails here, as does a field the schema requires and the code drops).
 */

const db = useTestDatabase();
const units = (amount: string) => parseUnits(amount, 18);
const NOW = new Date("2026-11-28T09:12:30.000Z");
const PAYER = "0x4bCDB0A0a5560472Bc623025dc0Cb4ACA6a46B4d";
const WALLET = "0x516D54fDA781283079A0f0772020E4a8a8c2EB94";

let userId: number;
let domain: Domain;
let tokenId: number;
let depositIndex = 0;

async function newSession(values: Partial<typeof paymentSessions.$inferInsert> = {}) {
  const index = ++depositIndex;
  const address = `0x${index.toString(16).padStart(40, "0")}`;
  const [session] = await db()
    .insert(paymentSessions)
    .values({
      id: randomUUID(),
      userId,
      tokenId,
      domainId: domain.id,
      network: "bsc",
      chainId: 56,
      depositIndex: index,
      depositAddress: address,
      depositTopic: address.slice(2).padStart(64, "0"),
      amount: units("10.5"),
      forwardTo: WALLET,
      expiresAt: new Date(NOW.getTime() + 30 * 60_000),
      metadata: { cartId: "c_7781" },
      orderId: `ORD-${index}`,
      description: "2 × Flat white",
      ...values,
    })
    .returning();
  if (!session) throw new Error("no session");
  return session;
}

async function payloads(): Promise<Record<string, unknown>[]> {
  const rows = await db().select({ payload: webhookDeliveries.payload }).from(webhookDeliveries).orderBy(webhookDeliveries.id);
  return rows.map((row) => JSON.parse(row.payload) as Record<string, unknown>);
}

beforeAll(async () => {
  useConfig({ NEXTAUTH_SECRET: "integration-test-secret-0123456789", PAYOUT_CHANGE_DELAY: "86400" });
  const [user] = await db().insert(users).values({ email: "events@shop.example.com", passwordHash: "x" }).returning();
  userId = user!.id;
  [domain] = (await db()
    .insert(domains)
    .values({ userId, origin: "https://shop.example.com", webhookUrl: "https://hooks.example.com/bsc-pay", withdrawalAddress: WALLET })
    .returning()) as [Domain];
  await syncEndpoint(db(), domain);
  const [token] = await db()
    .insert(tokens)
    .values({
      userId,
      network: "bsc",
      contractAddress: "0x55d398326f99059fF775485246999027B3197955",
      symbol: "USDT",
      name: "Tether USD",
      decimals: 18,
    })
    .returning();
  tokenId = token!.id;

  // Payments: a token-priced session through every payment event, and a fiat-priced one, paid, with its quote.
  const tokenPriced = await newSession({ status: "completed", receivedAmount: units("10.5"), txHash: `0x${"a1".repeat(32)}` });
  const fiat = await newSession({
    status: "completed",
    receivedAmount: units("25.02"),
    amount: units("25.02"),
    currency: "USD",
    fiatAmount: 2500n,
    rate: "0.99920000",
    rateSource: "chainlink:0xB97Ad0E74fa7d920791E90258A6E2085088b4320",
    ratedAt: NOW,
    txHash: `0x${"b2".repeat(32)}`,
  });
  await db()
    .insert(sessionQuotes)
    .values({
      sessionId: fiat.id,
      tokenId,
      position: 0,
      amount: units("25.02"),
      rate: "0.99920000",
      source: "chainlink:0xB97Ad0E74fa7d920791E90258A6E2085088b4320",
      quotedAt: NOW,
      expiresAt: fiat.expiresAt,
    });
  await enqueueSessionEvents(db(), [
    { session: tokenPriced, types: ["payment.partial", "payment.completed", "payment.late"] },
    { session: { ...tokenPriced, status: "expired", receivedAmount: 0n, txHash: null }, types: ["payment.expired"] },
    { session: { ...tokenPriced, status: "cancelled", receivedAmount: 0n, txHash: null }, types: ["payment.cancelled"] },
    { session: fiat, types: ["payment.completed"] },
  ]);

  // Refunds: one sent at once (with its withdrawal), one of the fiat payment in fiat terms, waiting for the payer.
  const [sent] = await db()
    .insert(refunds)
    .values({
      id: randomUUID(),
      sessionId: tokenPriced.id,
      userId,
      amount: units("2.5"),
      status: "sending",
      toAddress: PAYER,
      addressFrom: "merchant",
      claimExpiresAt: new Date(NOW.getTime() + 30 * 86_400_000),
    })
    .returning();
  const [claim] = await db()
    .insert(refunds)
    .values({
      id: randomUUID(),
      sessionId: fiat.id,
      userId,
      amount: units("10.51"),
      status: "awaiting_address",
      claimExpiresAt: new Date(NOW.getTime() + 30 * 86_400_000),
      basis: "fiat",
      currency: "USD",
      fiatAmount: 1050n,
      rate: "0.99910000",
      rateSource: "chainlink:0xB97Ad0E74fa7d920791E90258A6E2085088b4320",
      ratedAt: NOW,
    })
    .returning();
  const [withdrawal] = await db()
    .insert(withdrawals)
    .values({
      id: randomUUID(),
      userId,
      refundId: sent!.id,
      domainId: domain.id,
      tokenId,
      network: "bsc",
      fromAddress: WALLET,
      toAddress: PAYER,
      amount: units("2.5"),
      txHash: `0x${"c3".repeat(32)}`,
      status: "completed",
      confirmedAt: NOW,
    })
    .returning();
  await enqueueRefundEvent(db(), sent!, "refund.created", NOW);
  await enqueueRefundEvent(db(), claim!, "refund.created", NOW);
  await enqueueRefundEvent(db(), { ...sent!, status: "completed", completedAt: NOW }, "refund.completed", NOW);
  await enqueueRefundEvent(db(), { ...sent!, status: "failed", reason: "transaction reverted", completedAt: NOW }, "refund.failed", NOW);
  await enqueueWithdrawalEvent(db(), withdrawal!, "withdrawal.completed", NOW);
  await enqueueWithdrawalEvent(db(), { ...withdrawal!, status: "failed", failureReason: "transaction reverted" }, "withdrawal.failed", NOW);

  // A payout batch of two: one paid, one refused by the token; the batch ends partially_failed.
  const batch = await insertPayoutBatch(
    db(),
    {
      id: randomUUID(),
      userId,
      apiKeyId: null,
      requestedBy: userId,
      domainId: domain.id,
      tokenId,
      network: "bsc",
      fromAddress: WALLET,
      total: units("40"),
      itemCount: 2,
    },
    [
      { position: 0, toAddress: PAYER, amount: units("25"), reference: "INV-2026-118" },
      { position: 1, toAddress: "0xA480628344b8CD59347F14F50FFAeB76a05070c8", amount: units("15"), reference: null },
    ],
    false,
  );
  const items = () => db().select().from(payoutItems).where(eq(payoutItems.batchId, batch.id)).orderBy(payoutItems.position);
  // The chunk's pay transaction, as the ledger records it before it is broadcast.
  const [chunk] = await db()
    .insert(chainTransactions)
    .values({
      network: "bsc",
      walletRole: "withdrawal",
      walletIndex: domain.id,
      wallet: WALLET,
      nonce: 7,
      kind: "payout",
      toAddress: "0x61DeCaE70eCC2e66Cb42719A70E02aA352DedDa9",
      value: 0n,
      gasLimit: 120_000n,
      gasPrice: 50_000_000n,
      txHash: `0x${"d4".repeat(32)}`,
    })
    .returning();
  await applyItemFacts(
    db(),
    batch,
    (await items()).map((item) => ({ item, fact: { kind: "recorded" } as const })),
    { chainTxId: chunk!.id, nonce: 7, txHash: chunk!.txHash },
    NOW,
  );
  const [paid, refused] = await items();
  await applyItemFacts(
    db(),
    batch,
    [
      { item: paid!, fact: { kind: "settled", paid: true } },
      { item: refused!, fact: { kind: "settled", paid: false, reason: "the token refused this recipient" } },
    ],
    {},
    NOW,
  );

  // Approvals: one approved, one rejected, one expired.
  for (const fact of [
    { kind: "approve", by: userId, content: null },
    { kind: "reject", by: userId, reason: "not our supplier" },
    { kind: "expiry" },
  ] as const) {
    const waiting = await insertAwaitingWithdrawal(db(), {
      userId,
      apiKeyId: null,
      domainId: domain.id,
      tokenId,
      network: "bsc",
      fromAddress: PAYER,
      toAddress: PAYER,
      amount: units("5000"),
    });
    const approval = await requestApproval(
      db(),
      {
        accountId: userId,
        kind: "withdrawal",
        subjectId: waiting.id,
        domainId: domain.id,
        tokenId,
        amount: units("5000"),
        requestedBy: { userId: null, apiKeyId: null },
      },
      NOW,
    );
    const later = fact.kind === "expiry" ? new Date(approval.expiresAt.getTime() + 1000) : NOW;
    // The API key asked (no requesting member), so the account's user may decide.
    await applyApprovalFact(db(), approval.id, fact, later);
  }

  // The payout address: set at once while the merchant was never paid (applied); once a transfer
  // reached one of its sessions, a change waits for its date (pending) and is cancelled.
  await requestPayoutChange(db(), domain.id, PAYER, userId, NOW);
  await db()
    .insert(deposits)
    .values({
      network: "bsc",
      txHash: `0x${"e5".repeat(32)}`,
      logIndex: 0,
      blockNumber: 1n,
      blockHash: `0x${"f6".repeat(32)}`,
      blockTimestamp: NOW,
      tokenContract: "0x55d398326f99059fF775485246999027B3197955",
      fromAddress: PAYER,
      toAddress: tokenPriced.depositAddress,
      amount: units("10.5"),
      sessionId: tokenPriced.id,
    });
  await requestPayoutChange(db(), domain.id, null, userId, NOW);
  await cancelPayoutChange(db(), domain.id, NOW);

  await queuePing(db(), domain);
});

describe("webhook payloads written by the product", () => {
  it("cover every event type of EVENT_TYPES", async () => {
    const types = new Set((await payloads()).map((p) => p.type));
    expect([...types].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it("each parse with WebhookEvent and with their family's schema, losing no field", async () => {
    for (const payload of await payloads()) {
      const label = String(payload.type);
      expect(webhookEventSchema.parse(payload), label).toEqual(payload);
      expect(familyOf(payload.type as never).parse(payload), label).toEqual(payload);
    }
  });

  it("include the fields only some events carry: fiat pricing, a fiat refund, the payout change's states", async () => {
    const all = await payloads();
    const data = (type: string) => all.filter((p) => p.type === type).map((p) => p.data as Record<string, unknown>);
    expect(data("payment.completed").some((d) => d.currency === "USD" && typeof d.rateSource === "string")).toBe(true);
    expect(data("refund.created").some((d) => d.basis === "fiat" && d.fiatAmount === "10.50")).toBe(true);
    expect(data("domain.payout_changed").map((d) => d.status)).toEqual(["applied", "pending", "cancelled"]);
    expect(data("approval.rejected").map((d) => d.status)).toEqual(expect.arrayContaining(["rejected", "expired"]));
  });
});

describe("the examples of the webhooks section", () => {
  it("parse with their family's schema, losing no field", () => {
    for (const type of EVENT_TYPES) {
      const body = { type, timestamp: NOW.toISOString(), data: WEBHOOK_EXAMPLES[type] };
      expect(familyOf(type).parse(body), type).toEqual(body);
    }
  });

  it("a field the schema does not know is caught", () => {
    const body = { type: "ping", timestamp: NOW.toISOString(), data: { ...WEBHOOK_EXAMPLES.ping, extra: 1 } };
    expect(webhookEventSchema.parse(body)).not.toEqual(body);
  });
});
