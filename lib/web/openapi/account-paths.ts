/** The account's own API (/api/user: bearer JWT or the dashboard's session cookie) in the OpenAPI document: settings, keys, tokens, audit, gas, plan (sign-up and sign-in: sign-in-paths.ts). */

import { createApiKeySchema } from "../../accounts/api-keys/manage-api-keys";
import { auditQueryFields } from "../../accounts/audit/audit-query";
import { choosePlanSchema } from "../../domain/plans/current-plan";
import { registerTokenSchema } from "../../domain/tokens/schemas";
import { accountSettingsSchema } from "../dashboard/account/account-settings";
import { EX } from "./examples";
import { answer, badId, badLimit, described, idParam, json, member, memberErrors } from "./shared";
import { tagged } from "./tags";
import { apiKey, audit, gas, plan, settings, token } from "./user-examples";

const SETTINGS = "{accountCurrency, currencies, membersNeedTwoFactor, membersWithoutTwoFactor: [{userId, email, role}]}";

export const accountPaths = {
  "/api/user/settings": {
    get: {
      ...member("read"),
      ...tagged("Account"),
      operationId: "getAccountSettings",
      summary: "Get the account's settings",
      description:
        "The account's settings: {accountCurrency, currencies, membersNeedTwoFactor, membersWithoutTwoFactor}. membersWithoutTwoFactor: the members the two-factor rule covers (every role but viewer) who have not turned it on — while membersNeedTwoFactor is on, each may only enrol in this account.",
      responses: { "200": answer("OK", described(SETTINGS), settings), ...memberErrors("read", ["UNAUTHORIZED"]) },
    },
    patch: {
      ...member("settings"),
      ...tagged("Account"),
      operationId: "updateAccountSettings",
      summary: "Update the account's settings",
      description:
        "Sets the account currency, or (the owner) requires two-factor of the members who can move money, approve, hold keys or choose payout targets. accountCurrency (the dashboard's totals, volume chart and payments CSV) needs `settings`. membersNeedTwoFactor needs `members` (the owner), the owner's own two-factor on (else 403 two-factor-required) and `code`, their current code, to turn it either way. With it on, a member whose role holds money, approve, developer or payout-targets and who has no two-factor can only enrol (POST /api/user/two-factor) in this account: every /api/user route acting in it answers 403 two-factor-required-by-account, and so do the API keys they made. Their other accounts are unaffected. Nothing changes on a refusal.",
      requestBody: json(accountSettingsSchema, {
        currency: { accountCurrency: "EUR" },
        twoFactorRule: { membersNeedTwoFactor: true, code: "492031" },
      }),
      responses: {
        "200": answer(SETTINGS, described(SETTINGS), settings),
        ...memberErrors("settings", ["VALIDATION_ERROR", "UNAUTHORIZED"], {
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
      ...member("read"),
      ...tagged("API keys"),
      operationId: "listApiKeys",
      summary: "List API keys",
      responses: {
        "200": answer(
          "OK",
          described(
            "[{id, name, prefix, kind, scopes, createdBy: {userId, email} | null, createdAt, lastUsedAt, revokedAt, revokedReason, scopesReduced}]",
          ),
          [
            apiKey,
            {
              ...apiKey,
              id: 38,
              name: "reconciliation",
              prefix: "bscp_live_Hq2d",
              scopes: ["payments:read"],
              createdBy: { userId: 12, email: "dev@shop.example" },
              scopesReduced: { at: EX.later, from: ["payments:read", "refunds", "withdrawals"] },
            },
            {
              ...apiKey,
              id: 35,
              name: "old integration",
              prefix: "bscp_live_Zt8m",
              createdBy: { userId: 9, email: "left@shop.example" },
              revokedAt: EX.later,
              revokedReason: "member-removed",
            },
          ],
        ),
        ...memberErrors("read", ["UNAUTHORIZED"]),
      },
    },
    post: {
      ...member("developer"),
      ...tagged("API keys"),
      operationId: "createApiKey",
      summary: "Create an API key",
      description:
        "The key is shown once, and it is yours: at most your role's scopes; a money scope needs your two-factor; send `code` while it is on. `kind`: secret (default) or publishable (payments:write and payments:read only). The key is the caller's (`createdBy`): every request made with it is theirs. `scopes`: each needs a permission of the caller's role — payments:write `payments`, payments:read `read`, refunds/withdrawals/payouts `money` — and asking for one the role lacks is 403 FORBIDDEN scope-exceeds-role (nothing is made). Default: every scope the kind may hold that the role holds, the money scopes only while the caller has two-factor on. A money scope (refunds, withdrawals, payouts) needs the caller's two-factor: without it 403 FORBIDDEN two-factor-required; with it on, every key needs `code` (missing or wrong → 400 on the field `code`). The key never does more than its maker's current role: a smaller role takes scopes away, leaving the account revokes it.",
      requestBody: json(createApiKeySchema, {
        server: { name: "shop server", scopes: ["payments:write", "payments:read", "refunds"] },
        browser: { name: "checkout button", kind: "publishable" },
      }),
      responses: {
        "201": answer(
          "Created: the key's view plus `key`, shown this once",
          described("{id, name, prefix, kind, scopes, createdBy, createdAt, lastUsedAt, revokedAt, revokedReason, scopesReduced, key}"),
          {
            ...apiKey,
            lastUsedAt: null,
            key: "bscp_live_q3Xk7Lm2Vr9Tz4Wp1Yc8Nb6Hd5Jf0Gs3",
          },
        ),
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: {
            message: "enter the current code from your authenticator app: two-factor authentication is on",
            reason: "two-factor-code-required",
          },
          FORBIDDEN: {
            message:
              "your role (developer) cannot grant `withdrawals`: a key never does more than the member who made it (money is held by owner, admin, finance)",
            reason: "scope-exceeds-role",
            details: [{ path: "scopes", message: "your role (developer) may grant payments:read" }],
          },
        }),
      },
    },
  },
  "/api/user/api-keys/{id}": {
    delete: {
      ...member("developer"),
      ...tagged("API keys"),
      operationId: "revokeApiKey",
      summary: "Revoke an API key",
      description: "Revoked at once (revoking it again changes nothing).",
      requestParams: idParam("API key", 41),
      responses: {
        "200": answer(
          "The key's view, with revokedAt",
          described("{id, name, prefix, kind, scopes, createdBy, createdAt, lastUsedAt, revokedAt, revokedReason, scopesReduced}"),
          {
            ...apiKey,
            revokedAt: EX.later,
          },
        ),
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND"], {
          ...badId("id", "a positive integer"),
          NOT_FOUND: { message: "API key not found", reason: "not-found" },
        }),
      },
    },
  },
  "/api/user/tokens": {
    get: {
      ...member("read"),
      ...tagged("Tokens"),
      operationId: "listTokens",
      summary: "List tokens",
      responses: {
        "200": answer("OK", described("[{tokenId, symbol, name, decimals, contractAddress, network}]"), [token]),
        ...memberErrors("read", ["UNAUTHORIZED"]),
      },
    },
    post: {
      ...member("settings"),
      ...tagged("Tokens"),
      operationId: "registerToken",
      summary: "Register a BEP-20 token",
      requestBody: json(registerTokenSchema, { usdt: { contractAddress: EX.usdt, network: "bsc" } }),
      responses: {
        "201": answer(
          "Created (200 when it was registered already)",
          described("{tokenId, symbol, name, decimals, contractAddress, network}"),
          token,
        ),
        ...memberErrors("settings", ["VALIDATION_ERROR", "UNAUTHORIZED", "BLOCKCHAIN_ERROR"], {
          VALIDATION_ERROR: {
            message: `this gateway does not accept the token ${EX.recipient} on bsc: it is not in the operator's token catalogue.`,
            reason: "token-not-in-catalogue",
          },
          BLOCKCHAIN_ERROR: { message: "the bsc RPC did not answer; try again later", reason: "token-rpc-unavailable" },
        }),
      },
    },
  },
  "/api/user/audit": {
    get: {
      ...member("audit"),
      ...tagged("Account"),
      operationId: "listAuditEvents",
      summary: "List audit events",
      description:
        "The account's audit log, newest first, by cursor: {items: [{id, at, actor: {kind, userId?, apiKeyId?, label}, address, action, target, before, after}], nextCursor}.",
      requestParams: { query: auditQueryFields },
      responses: {
        "200": answer("{items, nextCursor}", described("{items, nextCursor}"), audit),
        ...memberErrors("audit", ["VALIDATION_ERROR", "UNAUTHORIZED"], badLimit),
      },
    },
  },
  "/api/user/gas": {
    get: {
      ...member("read"),
      ...tagged("Account"),
      operationId: "getGasUsage",
      summary: "Get gas usage",
      description: "BNB the gas tank spent for you per UTC day and kind (30 days), and today's budget and withdrawal count.",
      responses: {
        "200": answer("{today, days, kinds}", described("{today, days, kinds}"), gas),
        ...memberErrors("read", ["UNAUTHORIZED"]),
      },
    },
  },
  "/api/user/package": {
    get: {
      ...member("read"),
      ...tagged("Account"),
      operationId: "getPlan",
      summary: "Current plan and usage",
      responses: {
        "200": answer("OK", described("{active, plan, startsAt, endsAt, usage}"), plan),
        ...memberErrors("read", ["UNAUTHORIZED"]),
      },
    },
    post: {
      ...member("settings"),
      ...tagged("Account"),
      operationId: "choosePlan",
      summary: "Choose a self-serve plan",
      requestBody: json(choosePlanSchema, { starter: { plan: "starter" } }),
      responses: {
        "200": answer("OK: the plan view", described("{active, plan, startsAt, endsAt, usage}"), plan),
        ...memberErrors("settings", ["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: {
            message: 'plan "enterprise" is granted by the operator; only self-serve plans can be chosen here',
            reason: "plan-not-self-serve",
          },
        }),
      },
    },
  },
};
