/** Example answers of the account's own API (/api/user), typed against the functions that build them. */

import type { ApiKeyView } from "../../accounts/api-keys/manage-api-keys";
import type { AuditEventView } from "../../accounts/audit/list-audit";
import type { Page } from "../../base/pagination";
import type { DomainView } from "../../domain/merchant-domains/manage-domains";
import type { PlanView } from "../../domain/plans/current-plan";
import type { TokenView } from "../../domain/tokens/register-token";
import type { DeliveryView } from "../../domain/webhooks/deliveries";
import type { AccountSettings } from "../dashboard/account/account-settings";
import type { GasUsage } from "../dashboard/gas/gas-usage";
import { EX } from "./examples";
import { WEBHOOK_EXAMPLES } from "./webhooks";

export const bearer = {
  token: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..Jq3Xo9vR5u0cW1aB.d2hhdGV2ZXI.5mO2v8Yq1n3T",
  expiresAt: "2026-12-04T14:03:11.000Z",
};

export const apiKey = {
  id: 41,
  name: "shop server",
  prefix: "bscp_live_q3Xk",
  kind: "secret",
  scopes: ["payments:write", "payments:read", "refunds", "withdrawals", "payouts"],
  createdBy: { userId: 7, email: "owner@shop.example" },
  createdAt: EX.createdAt,
  lastUsedAt: EX.paidAt,
  revokedAt: null,
  revokedReason: null,
  scopesReduced: null,
} satisfies ApiKeyView;

export const token = {
  tokenId: 1,
  symbol: "USDT",
  name: "Tether USD",
  decimals: 18,
  contractAddress: EX.usdt,
  network: "bsc",
} satisfies TokenView;

export const domain = {
  domainId: 3,
  domain: EX.shop,
  payoutAddress: EX.payoutAddress,
  webhookUrl: `${EX.shop}/webhooks/bsc-pay`,
  webhookSecretHint: "whsec_…cmdl",
  withdrawalAddress: EX.withdrawalWallet,
  pendingPayoutAddress: null,
  payoutChangeEffectiveAt: null,
  payoutChangeRequestedAt: null,
  fiatUnderpayBps: null,
  fiatRateToleranceBps: null,
  fiatUnderpayBpsInForce: 0,
  fiatRateToleranceBpsInForce: 100,
  createdAt: "2026-11-02T10:00:00.000Z",
} satisfies DomainView;

export const settings = {
  accountCurrency: "EUR",
  currencies: ["USD", "EUR", "GBP", "CHF", "CAD", "AUD", "JPY"],
  membersNeedTwoFactor: true,
  membersWithoutTwoFactor: [{ userId: 12, email: "dev@shop.example", role: "developer" }],
} satisfies AccountSettings;

export const plan = {
  active: true,
  plan: { id: "starter", name: "Starter", monthlySessionQuota: 100, priceUsdCents: 0 },
  startsAt: "2026-11-02T10:00:00.000Z",
  endsAt: null,
  usage: { period: "2026-11", sessionsCreated: 42, remaining: 58 },
} satisfies PlanView;

export const ping = {
  deliveryId: 9181,
  eventId: "msg_2xQ7bLk3Vd9Rz1Pw8Yt5Nc4M",
  eventType: "ping",
  status: "pending",
  attempts: 0,
  lastStatusCode: null,
  lastError: null,
  lastAttemptAt: null,
  nextAttemptAt: EX.later,
  deliveredAt: null,
  createdAt: EX.later,
  payload: { type: "ping", timestamp: EX.later, data: { domainId: 3, domain: EX.shop, message: "webhook test from BSC Pay" } },
} satisfies DeliveryView;

export const delivered = {
  ...ping,
  deliveryId: 9177,
  eventId: "msg_Hc8Wm2Rt6Yp0Lq4Kx7Vb3Nz9",
  eventType: "payment.completed",
  status: "delivered",
  attempts: 1,
  lastStatusCode: 204,
  lastAttemptAt: EX.paidAt,
  nextAttemptAt: null,
  deliveredAt: EX.paidAt,
  createdAt: EX.paidAt,
  payload: { type: "payment.completed", timestamp: EX.paidAt, data: WEBHOOK_EXAMPLES["payment.completed"] },
} satisfies DeliveryView;

export const deliveries = { items: [delivered], meta: { page: 1, limit: 20, total: 1, pages: 1 } } satisfies Page<DeliveryView>;

export const audit = {
  items: [
    {
      id: 5120,
      at: EX.later,
      actor: { kind: "user", userId: 7, label: "owner@shop.example.com" },
      address: "198.51.100.4",
      action: "domain.webhook_changed",
      target: { type: "domain", id: "3" },
      before: { webhookUrl: null },
      after: { webhookUrl: `${EX.shop}/webhooks/bsc-pay`, webhookSecret: "[redacted]" },
    },
  ] satisfies AuditEventView[],
  nextCursor: null,
};

export const gas = {
  today: {
    plan: "Starter",
    spent: "0.000243",
    budget: "0.01",
    remaining: "0.009757",
    budgetUsedPercent: 2,
    withdrawalsRefused: null,
    withdrawals: 3,
    withdrawalLimit: 50,
    resetsAt: "2026-11-29T00:00:00.000Z",
  },
  days: [
    { day: "2026-11-28", sweep: "0.000162", batch: "0", withdrawal: "0.000081", replacement: "0", total: "0.000243", transactions: 5 },
  ],
  kinds: { sweep: "Forwarding payments", batch: "Forwarding in groups", withdrawal: "Withdrawals", replacement: "Speed-ups" },
} satisfies GasUsage;
