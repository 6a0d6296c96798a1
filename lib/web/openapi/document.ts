/**
 * OpenAPI 3.1 for the public API, generated from the very zod schemas that validate requests:
 * a field added to a schema shows up here, no hand-written copy to drift.
 */

import { z } from "zod";
import { createDocument } from "zod-openapi";
import { createApiKeySchema } from "../../accounts/api-keys/manage-api-keys";
import { signOutEverywhereSchema } from "../../accounts/api-keys/sign-out-everywhere";
import { auditQueryFields } from "../../accounts/audit/audit-query";
import { changePasswordSchema } from "../../accounts/users/change-password";
import { credentialsSchema } from "../../accounts/users/create-user";
import { addDomainSchema, twoFactorCodeField, updateDomainSchema } from "../../domain/domains/manage-domains";
import {
  cancelResponseSchema,
  createFiatPaymentSchema,
  createPaymentResponseSchema,
  createPaymentSchema,
  historyPageSchema,
  paymentHistoryItemSchema,
  paymentHistoryQuerySchema,
  paymentStatusSchema,
} from "../../domain/payments/schemas";
import { choosePlanSchema } from "../../domain/plans/current-plan";
import { registerTokenSchema } from "../../domain/tokens/schemas";
import { deliveriesQuerySchema } from "../../domain/webhooks/deliveries";
import { sendWithdrawalSchema, withdrawalHistoryQuerySchema, withdrawalSchema } from "../../domain/withdrawals/schemas";
import { accountSettingsSchema } from "../dashboard/account-settings";
import { payoutPaths } from "./payout-paths";
import { OPERATION_REASONS as reasons } from "./reasons";
import { refundAndLinkPaths } from "./refund-link-paths";
import { envelope, errors, idempotencyHeader, json, refusals, sessionIdParam, user, V1_ERRORS, v1Scope } from "./shared";

/** How both histories page (docs/design.md §25). */
const HISTORY_PAGING =
  "Two ways to page. By `cursor` (recommended): send `cursor=` (empty) for the newest rows, then each answer's `nextCursor` (in `data` and in `data.meta`) until it is null; the walk skips and repeats nothing while new rows arrive, costs the same at any depth and combines with the filters; `meta.page` is null. By `page`/`limit` (without `cursor`): the answer is `{items, meta:{page, limit, total, pages}}` as it always was. `meta.total` counts the rows matching the filters. A `cursor` this service did not hand out is a VALIDATION_ERROR.";

function build() {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "BSC Pay API",
      version: "1.0.0",
      description: "Payment sessions for BEP-20 tokens on BNB Smart Chain. Every answer is an envelope {success, data | error}.",
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "x-api-key",
          description:
            'A secret key (bscp_live_…, for servers) or a publishable key (bscp_pk_live_…, for browser code: payments:write and payments:read only). Each operation lists the scope it needs; a key without it is refused with 401 UNAUTHORIZED naming the scope ("this API key lacks the `withdrawals` scope"). Only publishable keys get CORS answers, on payment operations (x-cors: true); withdrawal and refund operations never answer CORS. Setting merchantWallet on payment/create needs the payouts scope.',
        },
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT from POST /api/user/token" },
      },
    },
    paths: {
      "/api/v1/payment/create": {
        post: {
          ...v1Scope("payments:write"),
          summary: "Create a payment session",
          description:
            "Priced in a token (`tokenId` + `amount`, in that token), or in a fiat currency (`currency` + `amount`, optionally `tokens`): the payer then pays in any offered token at a quote locked from Chainlink price feeds for QUOTE_TTL_SECONDS. Both `tokenId` and `currency` is refused (token-and-currency).",
          requestParams: idempotencyHeader,
          requestBody: json(z.union([createPaymentSchema, createFiatPaymentSchema])),
          responses: {
            "201": { description: "Created", ...json(envelope(createPaymentResponseSchema)) },
            ...refusals(
              reasons.createPayment,
              "VALIDATION_ERROR",
              "NO_PACKAGE",
              "DOMAIN_NOT_WHITELISTED",
              "IDEMPOTENCY_CONFLICT",
              ...V1_ERRORS,
            ),
          },
        },
      },
      "/api/v1/payment/{sessionId}/status": {
        get: {
          ...v1Scope("payments:read"),
          summary: "Current state of a session (poll every 5–10 s)",
          requestParams: sessionIdParam,
          responses: {
            "200": { description: "OK", ...json(envelope(paymentStatusSchema)) },
            ...refusals(reasons.read, "VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS),
          },
        },
      },
      "/api/v1/payment/{sessionId}/cancel": {
        post: {
          ...v1Scope("payments:write"),
          summary: "Cancel a pending session (a terminal one is left as it is)",
          requestParams: sessionIdParam,
          responses: {
            "200": { description: "OK", ...json(envelope(cancelResponseSchema)) },
            ...refusals(reasons.read, "VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS),
          },
        },
      },
      "/api/v1/payment/history": {
        get: {
          ...v1Scope("payments:read"),
          summary: "The API key's sessions, newest first",
          description: HISTORY_PAGING,
          requestParams: { query: paymentHistoryQuerySchema },
          responses: {
            "200": {
              description: "OK",
              ...json(envelope(historyPageSchema(paymentHistoryItemSchema))),
            },
            ...refusals(reasons.read, "VALIDATION_ERROR", ...V1_ERRORS),
          },
        },
      },
      "/api/v1/withdrawal/send": {
        post: {
          ...v1Scope("withdrawals"),
          summary: "Send tokens from the domain's withdrawal wallet",
          description:
            "At least the token's minimum withdrawal (VALIDATION_ERROR below it, or for a token the operator disallowed). RATE_LIMITED with Retry-After (until 00:00 UTC) once today's gas spent for the merchant reached its plan's daily budget, or today's withdrawal requests its limit; incoming payments are still swept.",
          requestParams: idempotencyHeader,
          requestBody: json(sendWithdrawalSchema),
          responses: {
            "201": { description: "Submitted", ...json(envelope(withdrawalSchema)) },
            ...refusals(reasons.sendWithdrawal, "VALIDATION_ERROR", "NOT_FOUND", "BLOCKCHAIN_ERROR", "IDEMPOTENCY_CONFLICT", ...V1_ERRORS),
          },
        },
      },
      "/api/v1/withdrawal/history": {
        get: {
          ...v1Scope("withdrawals"),
          summary: "The API key's withdrawals, newest first",
          description: HISTORY_PAGING,
          requestParams: { query: withdrawalHistoryQuerySchema },
          responses: {
            "200": { description: "OK", ...json(envelope(historyPageSchema(withdrawalSchema))) },
            ...refusals(reasons.read, "VALIDATION_ERROR", ...V1_ERRORS),
          },
        },
      },
      "/api/v1/withdrawal/{withdrawalId}": {
        get: {
          ...v1Scope("withdrawals"),
          summary: "One withdrawal (another key's is NOT_FOUND)",
          requestParams: { path: z.object({ withdrawalId: z.string().meta({ description: "UUID of the withdrawal." }) }) },
          responses: {
            "200": { description: "OK", ...json(envelope(withdrawalSchema)) },
            ...refusals(reasons.read, "VALIDATION_ERROR", "NOT_FOUND", ...V1_ERRORS),
          },
        },
      },
      ...refundAndLinkPaths,
      ...payoutPaths,
      "/api/user/register": {
        post: {
          summary: "Create an account",
          requestBody: json(credentialsSchema),
          responses: { "201": { description: "Created" }, ...errors("VALIDATION_ERROR") },
        },
      },
      "/api/user/token": {
        post: {
          summary: "Get a bearer token",
          description:
            "With two-factor sign-in on, `code` (the authenticator app's current code, or a recovery code) is required after the right password.",
          requestBody: json(credentialsSchema.extend({ code: z.string().optional() })),
          responses: { "200": { description: "{token, expiresAt}" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "RATE_LIMITED") },
        },
      },
      "/api/user/password": {
        post: {
          ...user,
          summary: "Change the password; every earlier token and session ends, the answer carries a fresh token",
          requestBody: json(changePasswordSchema),
          responses: { "200": { description: "{token, expiresAt}" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED") },
        },
      },
      "/api/user/sign-out-everywhere": {
        post: {
          ...user,
          summary: "End every bearer token and dashboard session of the account; with revokeApiKeys: true, revoke every API key too",
          requestBody: json(signOutEverywhereSchema),
          responses: { "200": { description: "{signedOut: true, apiKeysRevoked}" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED") },
        },
      },
      "/api/user/settings": {
        get: {
          ...user,
          summary: "The account's settings: {accountCurrency, currencies}",
          responses: { "200": { description: "OK" }, ...errors("UNAUTHORIZED") },
        },
        patch: {
          ...user,
          summary: "Set the account currency the dashboard's totals, volume chart and payments CSV are shown in",
          requestBody: json(accountSettingsSchema),
          responses: { "200": { description: "{accountCurrency, currencies}" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED") },
        },
      },
      "/api/user/api-keys": {
        get: { ...user, summary: "List API keys", responses: { "200": { description: "OK" }, ...errors("UNAUTHORIZED") } },
        post: {
          ...user,
          summary: "Create an API key (shown once); `code` required with two-factor sign-in on",
          description:
            "`kind`: secret (default) or publishable; `scopes`: default every scope the kind may hold (a publishable key may hold payments:write and payments:read only). The answer and GET list each key's kind and scopes.",
          requestBody: json(createApiKeySchema),
          responses: { "201": { description: "Created" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED") },
        },
      },
      "/api/user/tokens": {
        get: { ...user, summary: "List tokens", responses: { "200": { description: "OK" }, ...errors("UNAUTHORIZED") } },
        post: {
          ...user,
          summary: "Register a BEP-20 token",
          requestBody: json(registerTokenSchema),
          responses: { "201": { description: "Created" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "BLOCKCHAIN_ERROR") },
        },
      },
      "/api/user/domains": {
        get: { ...user, summary: "List whitelisted domains", responses: { "200": { description: "OK" }, ...errors("UNAUTHORIZED") } },
        post: {
          ...user,
          summary: "Whitelist a domain",
          requestBody: json(addDomainSchema),
          responses: { "201": { description: "Created" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED") },
        },
      },
      "/api/user/domains/{id}": {
        get: {
          ...user,
          summary: "One domain, with its webhookSecret while a webhookUrl is set",
          requestParams: { path: z.object({ id: z.string() }) },
          responses: { "200": { description: "OK" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND") },
        },
        patch: {
          ...user,
          summary: "Set the payout address or webhook URL",
          description:
            "With two-factor sign-in on, a change of either needs `code` (the app's current code; missing or wrong → 400 on the field `code`, nothing changes). Once the merchant has received a payment on any of its domains, a new payoutAddress takes effect after PAYOUT_CHANGE_DELAY (default 24 h): until then payoutAddress stays the old one and new sessions forward there, the answer shows pendingPayoutAddress, payoutChangeRequestedAt and payoutChangeEffectiveAt, and the webhook domain.payout_changed (status pending) announces it. While the merchant has never been paid, it changes at once (status applied). Cancel with DELETE /api/user/domains/{id}/payout-change.",
          requestParams: { path: z.object({ id: z.string() }) },
          requestBody: json(updateDomainSchema),
          responses: { "200": { description: "OK" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND") },
        },
      },
      "/api/user/domains/{id}/webhook-secret": {
        post: {
          ...user,
          summary: "Rotate the webhook signing secret (the old one keeps signing, as a second signature, for 24 h)",
          description: "With two-factor sign-in on, the body needs `code` (the app's current code): `{code}`.",
          requestParams: { path: z.object({ id: z.string() }) },
          requestBody: json(z.object({ code: twoFactorCodeField })),
          responses: {
            "200": { description: "The domain view with the new webhookSecret" },
            ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"),
          },
        },
      },
      "/api/user/domains/{id}/payout-change": {
        delete: {
          ...user,
          summary: "Cancel a payout address change still waiting for its date (no two-factor code needed)",
          description:
            "The pending change is dropped and domain.payout_changed (status cancelled) is sent; payoutAddress stays as it is. Nothing waiting (or the change already took effect) → 400.",
          requestParams: { path: z.object({ id: z.string() }) },
          responses: { "200": { description: "The domain view" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND") },
        },
      },
      "/api/user/domains/{id}/webhook-test": {
        post: {
          ...user,
          summary: "Queue a `ping` event to the domain's webhook URL",
          requestParams: { path: z.object({ id: z.string() }) },
          responses: { "201": { description: "The queued delivery" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND") },
        },
      },
      "/api/user/domains/{id}/webhook-deliveries": {
        get: {
          ...user,
          summary: "Webhook deliveries of the domain, newest first: event type, attempts, last status code and error, next attempt",
          requestParams: { path: z.object({ id: z.string() }), query: deliveriesQuerySchema },
          responses: { "200": { description: "{items, meta}" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND") },
        },
      },
      "/api/user/webhook-deliveries/{id}/redeliver": {
        post: {
          ...user,
          summary: "Send a delivery again, with the same webhook-id, on a fresh retry schedule",
          requestParams: { path: z.object({ id: z.string() }) },
          responses: { "200": { description: "The delivery, pending again" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND") },
        },
      },
      "/api/user/audit": {
        get: {
          ...user,
          summary:
            "The account's audit log, newest first, by cursor: {items: [{id, at, actor: {kind, userId?, apiKeyId?, label}, address, action, target, before, after}], nextCursor}",
          requestParams: { query: auditQueryFields },
          responses: { "200": { description: "{items, nextCursor}" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED") },
        },
      },
      "/api/user/gas": {
        get: {
          ...user,
          summary: "BNB the gas tank spent for you per UTC day and kind (30 days), and today's budget and withdrawal count",
          responses: { "200": { description: "{today, days, kinds}" }, ...errors("UNAUTHORIZED") },
        },
      },
      "/api/user/package": {
        get: { ...user, summary: "Current plan and usage", responses: { "200": { description: "OK" }, ...errors("UNAUTHORIZED") } },
        post: {
          ...user,
          summary: "Choose a self-serve plan",
          requestBody: json(choosePlanSchema),
          responses: { "200": { description: "OK" }, ...errors("VALIDATION_ERROR", "UNAUTHORIZED") },
        },
      },
    },
  });
}

let cached: ReturnType<typeof build> | undefined;
export function openApiDocument() {
  cached ??= build();
  return cached;
}
