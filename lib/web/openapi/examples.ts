/**
 * Example requests and answers of the OpenAPI document: one coherent story (a USDT payment of
 * 10.5, refunded in part, a withdrawal, a payout batch) so the values agree from one operation to
 * the next. Each is typed against the schema it illustrates; tests/unit/openapi-operations.test.ts
 * parses every example the document carries with its zod schema, and the linter checks them too.
 */

import type { z } from "zod";
import type { createPaymentResponseSchema, paymentHistoryItemSchema, paymentStatusSchema } from "../../domain/payments/schemas";
import type { payoutBatchViewSchema, payoutItemViewSchema } from "../../domain/payouts/schemas";
import type { refundSchema } from "../../domain/refunds/schemas";
import type { withdrawalSchema } from "../../domain/withdrawals/schemas";

export const EX = {
  sessionId: "d908d2da-6db3-472f-bfea-299722a1c9c1",
  withdrawalId: "d3a2d207-b2b2-4d28-9655-5c858caed305",
  refundId: "a757f5e4-b578-48b1-af9b-ac682ed9e274",
  batchId: "f704e4e3-de2f-44f8-a513-cdbbf52786ac",
  approvalId: "apr_5f1c9e2a7b3d4c6e8f0a1b2c",
  depositAddress: "0xF4aED22327305FfB2420B823D45f4bF6608aCA6b",
  payerAddress: "0x4bCDB0A0a5560472Bc623025dc0Cb4ACA6a46B4d",
  withdrawalWallet: "0x516D54fDA781283079A0f0772020E4a8a8c2EB94",
  payoutAddress: "0xeE3CF47e52276E739e9e49cab4A54B2784335F14",
  recipient: "0xA480628344b8CD59347F14F50FFAeB76a05070c8",
  recipient2: "0x61DeCaE70eCC2e66Cb42719A70E02aA352DedDa9",
  usdt: "0x55d398326f99059fF775485246999027B3197955",
  paymentTx: "0xa32a47bf273f36bcfd0a146fe164a0c7ae80062d9a0550e12e72342623b14d63",
  withdrawalTx: "0x083bee6e5d4aeb76f19db2fdf8400955d9ef3bace3e2ad33a7b7944b216dc75b",
  payoutTx: "0xd70dca2ae07e92ea32990a9168e141fbd2a0a2a09dc1e325fa1d7f7c5be5dce7",
  site: "https://pay.example.com",
  shop: "https://shop.example.com",
  createdAt: "2026-11-27T14:03:11.000Z",
  expiresAt: "2026-11-27T14:33:11.000Z",
  paidAt: "2026-11-27T14:05:42.000Z",
  later: "2026-11-28T09:12:30.000Z",
} as const;

export const paymentSessionExample = {
  sessionId: EX.sessionId,
  depositAddress: EX.depositAddress,
  ephemeralAddress: EX.depositAddress,
  qrCode: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA…",
  amount: "10.5",
  token: "USDT",
  expiresAt: EX.expiresAt,
  status: "pending",
  checkoutUrl: `${EX.site}/pay/${EX.sessionId}`,
  description: "2 × Flat white",
  orderId: "ORD-10042",
} satisfies z.output<typeof createPaymentResponseSchema>;

export const paymentStatusExample = {
  sessionId: EX.sessionId,
  status: "completed",
  amount: "10.5",
  receivedAmount: "10.5",
  txHash: EX.paymentTx,
  expiresAt: EX.expiresAt,
  token: "USDT",
  overpaid: false,
  late: false,
  lateAmount: null,
  description: "2 × Flat white",
  orderId: "ORD-10042",
} satisfies z.output<typeof paymentStatusSchema>;

export const paymentHistoryItemExample = {
  sessionId: EX.sessionId,
  depositAddress: EX.depositAddress,
  ephemeralAddress: EX.depositAddress,
  amount: "10.5",
  token: "USDT",
  status: "completed",
  receivedAmount: "10.5",
  txHash: EX.paymentTx,
  overpaid: false,
  late: false,
  lateAmount: null,
  expiresAt: EX.expiresAt,
  createdAt: EX.createdAt,
  checkoutUrl: `${EX.site}/pay/${EX.sessionId}`,
  metadata: { cartId: "c_7781" },
  description: "2 × Flat white",
  orderId: "ORD-10042",
} satisfies z.output<typeof paymentHistoryItemSchema>;

export const withdrawalExample = {
  withdrawalId: EX.withdrawalId,
  txHash: EX.withdrawalTx,
  amount: "25",
  token: "USDT",
  toAddress: EX.recipient,
  status: "submitted",
  domainId: 3,
  fromAddress: EX.withdrawalWallet,
  createdAt: EX.later,
  confirmedAt: null,
  failureReason: null,
  refundId: null,
} satisfies z.output<typeof withdrawalSchema>;

export const refundExample = {
  refundId: EX.refundId,
  sessionId: EX.sessionId,
  status: "sending",
  amount: "2.5",
  token: "USDT",
  network: "bsc",
  toAddress: EX.payerAddress,
  addressFrom: "merchant",
  claimUrl: null,
  claimLinkIssued: false,
  claimExpiresAt: "2026-12-28T09:12:30.000Z",
  withdrawalId: EX.withdrawalId,
  txHash: EX.withdrawalTx,
  reason: null,
  createdAt: EX.later,
  completedAt: null,
} satisfies z.output<typeof refundSchema>;

/** The claim link of the examples: the refund's id and its secret (both made up). */
export const claimUrlExample = `${EX.site}/refund/${EX.refundId}?k=x7Qp0mZb3dY9kV2rT5wN8cH1sL4eA6gJ0uF3iO7yB2Q`;

/** A refund waiting for the payer's address, as the answer that made its link shows it. */
export const claimRefundExample = {
  ...refundExample,
  status: "awaiting_address",
  toAddress: null,
  addressFrom: null,
  claimUrl: claimUrlExample,
  claimLinkIssued: true,
  withdrawalId: null,
  txHash: null,
} satisfies z.output<typeof refundSchema>;

export const payoutItemExample = {
  index: 0,
  toAddress: EX.recipient,
  amount: "25",
  reference: "INV-2026-118",
  status: "completed",
  txHash: EX.payoutTx,
  failureReason: null,
  completedAt: "2026-11-28T09:12:34.000Z",
} satisfies z.output<typeof payoutItemViewSchema>;

export const payoutBatchExample = {
  batchId: EX.batchId,
  status: "completed",
  domainId: 3,
  tokenId: 1,
  token: "USDT",
  network: "bsc",
  fromAddress: EX.withdrawalWallet,
  total: "40",
  itemCount: 2,
  counts: { pending: 0, sending: 0, completed: 2, failed: 0 },
  reason: null,
  createdAt: EX.later,
  completedAt: "2026-11-28T09:12:34.000Z",
  items: [
    payoutItemExample,
    {
      index: 1,
      toAddress: EX.recipient2,
      amount: "15",
      reference: "INV-2026-119",
      status: "completed",
      txHash: EX.payoutTx,
      failureReason: null,
      completedAt: "2026-11-28T09:12:34.000Z",
    },
  ],
} satisfies z.output<typeof payoutBatchViewSchema>;

/** A page of a history, paged by cursor. */
export function cursorPage<T>(items: T[]) {
  const nextCursor = "MjAyNi0xMS0yN1QxMzo1ODowMi40ODEzMDVafDdjMGU5YTUyLTFmM2ItNGQ2YS05ZTJjLTViOGYwZDRhM2UxNw";
  return { items, nextCursor, meta: { page: null, limit: 20, total: 57, pages: 3, nextCursor } };
}
