/**
 * The account's own API (/api/user: bearer JWT or the dashboard's session cookie) in the OpenAPI
 * document. Most answers have no response schema yet (`data` is described in words); their
 * examples are typed against the functions that build the answers, so they cannot drift unseen.
 */

import { z } from "zod";
import type { ApiKeyView } from "../../accounts/api-keys/manage-api-keys";
import { createApiKeySchema } from "../../accounts/api-keys/manage-api-keys";
import { signOutEverywhereSchema } from "../../accounts/api-keys/sign-out-everywhere";
import { auditQueryFields } from "../../accounts/audit/audit-query";
import type { AuditEventView } from "../../accounts/audit/list-audit";
import { changePasswordSchema } from "../../accounts/users/change-password";
import { credentialsSchema } from "../../accounts/users/create-user";
import type { RegisteredUser } from "../../accounts/users/register-user";
import type { Page } from "../../base/pagination";
import { addDomainSchema, type DomainView, twoFactorCodeField, updateDomainSchema } from "../../domain/domains/manage-domains";
import { choosePlanSchema, type PlanView } from "../../domain/plans/current-plan";
import type { TokenView } from "../../domain/tokens/register-token";
import { registerTokenSchema } from "../../domain/tokens/schemas";
import { DELIVERY_STATUSES, type DeliveryView, deliveriesQuerySchema } from "../../domain/webhooks/deliveries";
import { WEBHOOK_EVENT_TYPES } from "../../domain/webhooks/outbox";
import { type AccountSettings, accountSettingsSchema } from "../dashboard/account-settings";
import type { GasUsage } from "../dashboard/gas-usage";
import { EX } from "./examples";
import { answer, badLimit, errors, idParam, json, open, type Problems, user } from "./shared";
import { webhookEventSchema } from "./webhook-events";
import { WEBHOOK_EXAMPLES } from "./webhooks";

/** `data` of an answer without a response schema: its shape is in the summary and the example. */
const described = (what: string) => z.unknown().meta({ description: what });

/** A delivery of a webhook event to a domain's endpoint; `payload` is the exact body sent. */
const deliverySchema = z
  .object({
    deliveryId: z.number().int(),
    eventId: z.string().meta({ description: "The webhook-id header: the same on every attempt." }),
    eventType: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable().meta({ description: "While pending: when the next attempt is due." }),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
    payload: webhookEventSchema,
  })
  .meta({ id: "WebhookDelivery" });

const domainNotFound: Problems = { NOT_FOUND: { message: "domain not found", reason: "not-found" } };
const badDomainId: Problems = { VALIDATION_ERROR: { message: "domainId must be a positive integer", reason: "invalid-request" } };

const bearer = {
  token: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..Jq3Xo9vR5u0cW1aB.d2hhdGV2ZXI.5mO2v8Yq1n3T",
  expiresAt: "2026-12-04T14:03:11.000Z",
};

const apiKey = {
  id: 41,
  name: "shop server",
  prefix: "bscp_live_q3Xk",
  kind: "secret",
  scopes: ["payments:write", "payments:read", "refunds", "withdrawals", "payouts"],
  createdAt: EX.createdAt,
  lastUsedAt: EX.paidAt,
  revokedAt: null,
} satisfies ApiKeyView;

const token = {
  tokenId: 1,
  symbol: "USDT",
  name: "Tether USD",
  decimals: 18,
  contractAddress: EX.usdt,
  network: "bsc",
} satisfies TokenView;

const domain = {
  domainId: 3,
  domain: EX.shop,
  payoutAddress: EX.payoutAddress,
  webhookUrl: `${EX.shop}/webhooks/bsc-pay`,
  webhookSecret: "whsec_Zm9vYmFyYmF6cXV4cXV1eGNvcmdl",
  withdrawalAddress: EX.withdrawalWallet,
  pendingPayoutAddress: null,
  payoutChangeEffectiveAt: null,
  payoutChangeRequestedAt: null,
  fiatUnderpayBps: null,
  fiatRateToleranceBps: null,
  fiatUnderpayBpsInForce: 50,
  fiatRateToleranceBpsInForce: 100,
  createdAt: "2026-11-02T10:00:00.000Z",
} satisfies DomainView;

const settings = { accountCurrency: "EUR", currencies: ["USD", "EUR", "GBP", "CHF", "CAD", "AUD", "JPY"] } satisfies AccountSettings;

const plan = {
  active: true,
  plan: { id: "starter", name: "Starter", monthlySessionQuota: 100, priceUsdCents: 0 },
  startsAt: "2026-11-02T10:00:00.000Z",
  endsAt: null,
  usage: { period: "2026-11", sessionsCreated: 42, remaining: 58 },
} satisfies PlanView;

const ping = {
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

const delivered = {
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

const deliveries = { items: [delivered], meta: { page: 1, limit: 20, total: 1, pages: 1 } } satisfies Page<DeliveryView>;

const audit = {
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

const gas = {
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

export const userPaths = {
  "/api/user/register": {
    post: {
      ...open,
      operationId: "registerUser",
      summary: "Create an account",
      requestBody: json(credentialsSchema, { account: { email: "owner@shop.example.com", password: "correct horse battery staple" } }),
      responses: {
        "201": answer("Created: {userId, email, createdAt}", described("{userId, email, createdAt}"), {
          userId: 7,
          email: "owner@shop.example.com",
          createdAt: EX.createdAt,
        } satisfies RegisteredUser),
        ...errors(["VALIDATION_ERROR", "REGISTRATION_CLOSED", "RATE_LIMITED"], {
          VALIDATION_ERROR: { message: "an account with this email already exists", reason: "email-taken" },
        }),
      },
    },
  },
  "/api/user/token": {
    post: {
      ...open,
      operationId: "createBearerToken",
      summary: "Get a bearer token",
      description:
        "With two-factor sign-in on, `code` (the authenticator app's current code, or a recovery code) is required after the right password.",
      requestBody: json(credentialsSchema.extend({ code: z.string().optional() }), {
        signIn: { email: "owner@shop.example.com", password: "correct horse battery staple" },
        twoFactor: { email: "owner@shop.example.com", password: "correct horse battery staple", code: "492031" },
      }),
      responses: {
        "200": answer("{token, expiresAt}", described("{token, expiresAt}"), bearer),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED", "RATE_LIMITED"], {
          UNAUTHORIZED: { message: "invalid email or password", reason: "credentials-invalid" },
        }),
      },
    },
  },
  "/api/user/password": {
    post: {
      ...user,
      operationId: "changePassword",
      summary: "Change the password; every earlier token and session ends, the answer carries a fresh token",
      requestBody: json(changePasswordSchema, {
        change: { currentPassword: "correct horse battery staple", newPassword: "tr0mbone-gazelle-ledger" },
      }),
      responses: {
        "200": answer("{token, expiresAt}", described("{token, expiresAt}"), bearer),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: {
            message: "the current password is wrong",
            reason: "password-wrong",
            details: [{ path: "currentPassword", message: "the current password is wrong" }],
          },
        }),
      },
    },
  },
  "/api/user/sign-out-everywhere": {
    post: {
      ...user,
      operationId: "signOutEverywhere",
      summary: "End every bearer token and dashboard session of the account; with revokeApiKeys: true, revoke every API key too",
      requestBody: json(signOutEverywhereSchema, { withKeys: { revokeApiKeys: true } }),
      responses: {
        "200": answer("{signedOut: true, apiKeysRevoked}", described("{signedOut: true, apiKeysRevoked}"), {
          signedOut: true,
          apiKeysRevoked: 2,
        }),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: { message: "revokeApiKeys: revokeApiKeys must be true or false", reason: "invalid-request" },
        }),
      },
    },
  },
  "/api/user/settings": {
    get: {
      ...user,
      operationId: "getAccountSettings",
      summary: "The account's settings: {accountCurrency, currencies}",
      responses: { "200": answer("OK", described("{accountCurrency, currencies}"), settings), ...errors(["UNAUTHORIZED"]) },
    },
    patch: {
      ...user,
      operationId: "updateAccountSettings",
      summary: "Set the account currency the dashboard's totals, volume chart and payments CSV are shown in",
      requestBody: json(accountSettingsSchema, { currency: { accountCurrency: "EUR" } }),
      responses: {
        "200": answer("{accountCurrency, currencies}", described("{accountCurrency, currencies}"), settings),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: {
            message: "accountCurrency: accountCurrency must be one of USD, EUR, GBP, CHF, CAD, AUD, JPY",
            reason: "invalid-request",
          },
        }),
      },
    },
  },
  "/api/user/api-keys": {
    get: {
      ...user,
      operationId: "listApiKeys",
      summary: "List API keys",
      responses: {
        "200": answer("OK", described("[{id, name, prefix, kind, scopes, createdAt, lastUsedAt, revokedAt}]"), [apiKey]),
        ...errors(["UNAUTHORIZED"]),
      },
    },
    post: {
      ...user,
      operationId: "createApiKey",
      summary: "Create an API key (shown once); `code` required with two-factor sign-in on",
      description:
        "`kind`: secret (default) or publishable; `scopes`: default every scope the kind may hold (a publishable key may hold payments:write and payments:read only). The answer and GET list each key's kind and scopes.",
      requestBody: json(createApiKeySchema, {
        server: { name: "shop server", scopes: ["payments:write", "payments:read", "refunds"] },
        browser: { name: "checkout button", kind: "publishable" },
      }),
      responses: {
        "201": answer(
          "Created: the key's view plus `key`, shown this once",
          described("{id, name, prefix, kind, scopes, createdAt, lastUsedAt, revokedAt, key}"),
          {
            ...apiKey,
            lastUsedAt: null,
            key: "bscp_live_q3Xk7Lm2Vr9Tz4Wp1Yc8Nb6Hd5Jf0Gs3",
          },
        ),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: {
            message: "enter the current code from your authenticator app: two-factor authentication is on",
            reason: "two-factor-code-required",
          },
        }),
      },
    },
  },
  "/api/user/tokens": {
    get: {
      ...user,
      operationId: "listTokens",
      summary: "List tokens",
      responses: {
        "200": answer("OK", described("[{tokenId, symbol, name, decimals, contractAddress, network}]"), [token]),
        ...errors(["UNAUTHORIZED"]),
      },
    },
    post: {
      ...user,
      operationId: "registerToken",
      summary: "Register a BEP-20 token",
      requestBody: json(registerTokenSchema, { usdt: { contractAddress: EX.usdt, network: "bsc" } }),
      responses: {
        "201": answer(
          "Created (200 when it was registered already)",
          described("{tokenId, symbol, name, decimals, contractAddress, network}"),
          token,
        ),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED", "BLOCKCHAIN_ERROR"], {
          VALIDATION_ERROR: {
            message: `this gateway does not accept the token ${EX.recipient} on bsc: it is not in the operator's token catalogue.`,
            reason: "token-not-in-catalogue",
          },
          BLOCKCHAIN_ERROR: { message: "the bsc RPC did not answer; try again later", reason: "token-rpc-unavailable" },
        }),
      },
    },
  },
  "/api/user/domains": {
    get: {
      ...user,
      operationId: "listDomains",
      summary: "List whitelisted domains",
      responses: { "200": answer("OK", described("[domain view]"), [{ ...domain, webhookSecret: null }]), ...errors(["UNAUTHORIZED"]) },
    },
    post: {
      ...user,
      operationId: "createDomain",
      summary: "Whitelist a domain",
      requestBody: json(addDomainSchema, { shop: { domain: EX.shop } }),
      responses: {
        "201": answer("Created: the domain view", described("domain view"), {
          ...domain,
          payoutAddress: null,
          webhookUrl: null,
          webhookSecret: null,
        }),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: { message: `domain ${EX.shop} is already whitelisted`, reason: "domain-already-whitelisted" },
        }),
      },
    },
  },
  "/api/user/domains/{id}": {
    get: {
      ...user,
      operationId: "getDomain",
      summary: "One domain, with its webhookSecret while a webhookUrl is set",
      requestParams: idParam("domain"),
      responses: {
        "200": answer("OK", described("domain view"), domain),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], { ...badDomainId, ...domainNotFound }),
      },
    },
    patch: {
      ...user,
      operationId: "updateDomain",
      summary: "Set the payout address or webhook URL",
      description:
        "With two-factor sign-in on, a change of either needs `code` (the app's current code; missing or wrong → 400 on the field `code`, nothing changes). Once the merchant has received a payment on any of its domains, a new payoutAddress takes effect after PAYOUT_CHANGE_DELAY (default 24 h): until then payoutAddress stays the old one and new sessions forward there, the answer shows pendingPayoutAddress, payoutChangeRequestedAt and payoutChangeEffectiveAt, and the webhook domain.payout_changed (status pending) announces it. While the merchant has never been paid, it changes at once (status applied). Cancel with DELETE /api/user/domains/{id}/payout-change.",
      requestParams: idParam("domain"),
      requestBody: json(updateDomainSchema, {
        payout: { payoutAddress: EX.recipient, code: "492031" },
        webhook: { webhookUrl: `${EX.shop}/webhooks/bsc-pay`, code: "492031" },
      }),
      responses: {
        "200": answer("OK: the domain view", described("domain view"), {
          ...domain,
          pendingPayoutAddress: EX.recipient,
          payoutChangeRequestedAt: EX.later,
          payoutChangeEffectiveAt: "2026-11-29T09:12:30.000Z",
        }),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], domainNotFound),
      },
    },
  },
  "/api/user/domains/{id}/webhook-secret": {
    post: {
      ...user,
      operationId: "rotateWebhookSecret",
      summary: "Rotate the webhook signing secret (the old one keeps signing, as a second signature, for 24 h)",
      description: "With two-factor sign-in on, the body needs `code` (the app's current code): `{code}`.",
      requestParams: idParam("domain"),
      requestBody: json(z.object({ code: twoFactorCodeField }), { twoFactor: { code: "492031" } }),
      responses: {
        "200": answer("The domain view with the new webhookSecret", described("domain view"), {
          ...domain,
          webhookSecret: "whsec_bmV3c2VjcmV0bmV3c2VjcmV0bmV3",
        }),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], {
          VALIDATION_ERROR: {
            message: "this domain has no webhookUrl; set one first (PATCH /api/user/domains/:id)",
            reason: "webhook-url-missing",
          },
          ...domainNotFound,
        }),
      },
    },
  },
  "/api/user/domains/{id}/payout-change": {
    delete: {
      ...user,
      operationId: "cancelPayoutChange",
      summary: "Cancel a payout address change still waiting for its date (no two-factor code needed)",
      description:
        "The pending change is dropped and domain.payout_changed (status cancelled) is sent; payoutAddress stays as it is. Nothing waiting (or the change already took effect) → 400.",
      requestParams: idParam("domain"),
      responses: {
        "200": answer("The domain view", described("domain view"), domain),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], {
          VALIDATION_ERROR: {
            message:
              "no payout address change is waiting for this domain (a change takes effect at its date and can no longer be cancelled then)",
            reason: "payout-change-not-waiting",
          },
          ...domainNotFound,
        }),
      },
    },
  },
  "/api/user/domains/{id}/webhook-test": {
    post: {
      ...user,
      operationId: "sendWebhookTest",
      summary: "Queue a `ping` event to the domain's webhook URL",
      requestParams: idParam("domain"),
      responses: {
        "201": answer("The queued delivery", deliverySchema, ping),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND", "RATE_LIMITED"], {
          VALIDATION_ERROR: {
            message: "this domain has no webhookUrl; set one first (PATCH /api/user/domains/:id)",
            reason: "webhook-url-missing",
          },
          RATE_LIMITED: {
            message: "5 test events are still waiting for your endpoint; send more once they are delivered",
            reason: "webhook-test-events-waiting",
          },
          ...domainNotFound,
        }),
      },
    },
  },
  "/api/user/domains/{id}/webhook-deliveries": {
    get: {
      ...user,
      operationId: "listWebhookDeliveries",
      summary: "Webhook deliveries of the domain, newest first: event type, attempts, last status code and error, next attempt",
      requestParams: { ...idParam("domain"), query: deliveriesQuerySchema },
      responses: {
        "200": answer(
          "{items, meta}",
          z.object({
            items: z.array(deliverySchema),
            meta: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() }),
          }),
          deliveries,
        ),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], { ...badLimit, ...domainNotFound }),
      },
    },
  },
  "/api/user/webhook-deliveries/{id}/redeliver": {
    post: {
      ...user,
      operationId: "redeliverWebhook",
      summary: "Send a delivery again, with the same webhook-id, on a fresh retry schedule",
      requestParams: idParam("webhook delivery", 9177),
      responses: {
        "200": answer("The delivery, pending again", deliverySchema, {
          ...delivered,
          status: "pending",
          nextAttemptAt: EX.later,
          deliveredAt: null,
        }),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], {
          VALIDATION_ERROR: {
            message: "this delivery is being sent right now; try again in a few seconds",
            reason: "webhook-delivery-in-flight",
          },
          NOT_FOUND: { message: "webhook delivery not found", reason: "not-found" },
        }),
      },
    },
  },
  "/api/user/audit": {
    get: {
      ...user,
      operationId: "listAuditEvents",
      summary:
        "The account's audit log, newest first, by cursor: {items: [{id, at, actor: {kind, userId?, apiKeyId?, label}, address, action, target, before, after}], nextCursor}",
      requestParams: { query: auditQueryFields },
      responses: {
        "200": answer("{items, nextCursor}", described("{items, nextCursor}"), audit),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED"], badLimit),
      },
    },
  },
  "/api/user/gas": {
    get: {
      ...user,
      operationId: "getGasUsage",
      summary: "BNB the gas tank spent for you per UTC day and kind (30 days), and today's budget and withdrawal count",
      responses: { "200": answer("{today, days, kinds}", described("{today, days, kinds}"), gas), ...errors(["UNAUTHORIZED"]) },
    },
  },
  "/api/user/package": {
    get: {
      ...user,
      operationId: "getPlan",
      summary: "Current plan and usage",
      responses: { "200": answer("OK", described("{active, plan, startsAt, endsAt, usage}"), plan), ...errors(["UNAUTHORIZED"]) },
    },
    post: {
      ...user,
      operationId: "choosePlan",
      summary: "Choose a self-serve plan",
      requestBody: json(choosePlanSchema, { starter: { plan: "starter" } }),
      responses: {
        "200": answer("OK: the plan view", described("{active, plan, startsAt, endsAt, usage}"), plan),
        ...errors(["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: {
            message: 'plan "enterprise" is granted by the operator; only self-serve plans can be chosen here',
            reason: "plan-not-self-serve",
          },
        }),
      },
    },
  },
};
