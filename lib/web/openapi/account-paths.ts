/** The account's own API (/api/user: bearer JWT or the dashboard's session cookie) in the OpenAPI document: sign-up, sign-in, keys, tokens, settings, plan. */

import { z } from "zod";
import { createApiKeySchema } from "../../accounts/api-keys/manage-api-keys";
import { signOutEverywhereSchema } from "../../accounts/api-keys/sign-out-everywhere";
import { auditQueryFields } from "../../accounts/audit/audit-query";
import { changePasswordSchema } from "../../accounts/users/change-password";
import { credentialsSchema } from "../../accounts/users/create-user";
import type { RegisteredUser } from "../../accounts/users/register-user";
import { choosePlanSchema } from "../../domain/plans/current-plan";
import { registerTokenSchema } from "../../domain/tokens/schemas";
import { accountSettingsSchema } from "../dashboard/account-settings";
import { EX } from "./examples";
import { answer, badId, badLimit, described, errors, idParam, json, member, memberErrors, open, user } from "./shared";
import { apiKey, audit, bearer, gas, plan, settings, token } from "./user-examples";

export const accountPaths = {
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
      ...member("read"),
      operationId: "signOutEverywhere",
      summary: "End every bearer token and dashboard session of yours; with revokeApiKeys: true, revoke every API key of the account too",
      description:
        "revokeApiKeys: true needs the developer permission in the account acted in (X-Account-Id); without it the answer is 403 role-forbids and nothing ends.",
      requestBody: json(signOutEverywhereSchema, { withKeys: { revokeApiKeys: true } }),
      responses: {
        "200": answer("{signedOut: true, apiKeysRevoked}", described("{signedOut: true, apiKeysRevoked}"), {
          signedOut: true,
          apiKeysRevoked: 2,
        }),
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: { message: "revokeApiKeys: revokeApiKeys must be true or false", reason: "invalid-request" },
        }),
      },
    },
  },
  "/api/user/settings": {
    get: {
      ...member("read"),
      operationId: "getAccountSettings",
      summary: "The account's settings: {accountCurrency, currencies}",
      responses: { "200": answer("OK", described("{accountCurrency, currencies}"), settings), ...memberErrors("read", ["UNAUTHORIZED"]) },
    },
    patch: {
      ...member("settings"),
      operationId: "updateAccountSettings",
      summary: "Set the account currency the dashboard's totals, volume chart and payments CSV are shown in",
      requestBody: json(accountSettingsSchema, { currency: { accountCurrency: "EUR" } }),
      responses: {
        "200": answer("{accountCurrency, currencies}", described("{accountCurrency, currencies}"), settings),
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
      operationId: "listApiKeys",
      summary: "List API keys",
      responses: {
        "200": answer("OK", described("[{id, name, prefix, kind, scopes, createdAt, lastUsedAt, revokedAt}]"), [apiKey]),
        ...memberErrors("read", ["UNAUTHORIZED"]),
      },
    },
    post: {
      ...member("developer"),
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
        ...memberErrors("developer", ["VALIDATION_ERROR", "UNAUTHORIZED"], {
          VALIDATION_ERROR: {
            message: "enter the current code from your authenticator app: two-factor authentication is on",
            reason: "two-factor-code-required",
          },
        }),
      },
    },
  },
  "/api/user/api-keys/{id}": {
    delete: {
      ...member("developer"),
      operationId: "revokeApiKey",
      summary: "Revoke an API key at once (revoking it again changes nothing)",
      requestParams: idParam("API key", 41),
      responses: {
        "200": answer("The key's view, with revokedAt", described("{id, name, prefix, kind, scopes, createdAt, lastUsedAt, revokedAt}"), {
          ...apiKey,
          revokedAt: EX.later,
        }),
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
      operationId: "listTokens",
      summary: "List tokens",
      responses: {
        "200": answer("OK", described("[{tokenId, symbol, name, decimals, contractAddress, network}]"), [token]),
        ...memberErrors("read", ["UNAUTHORIZED"]),
      },
    },
    post: {
      ...member("settings"),
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
      operationId: "listAuditEvents",
      summary:
        "The account's audit log, newest first, by cursor: {items: [{id, at, actor: {kind, userId?, apiKeyId?, label}, address, action, target, before, after}], nextCursor}",
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
      operationId: "getGasUsage",
      summary: "BNB the gas tank spent for you per UTC day and kind (30 days), and today's budget and withdrawal count",
      responses: {
        "200": answer("{today, days, kinds}", described("{today, days, kinds}"), gas),
        ...memberErrors("read", ["UNAUTHORIZED"]),
      },
    },
  },
  "/api/user/package": {
    get: {
      ...member("read"),
      operationId: "getPlan",
      summary: "Current plan and usage",
      responses: {
        "200": answer("OK", described("{active, plan, startsAt, endsAt, usage}"), plan),
        ...memberErrors("read", ["UNAUTHORIZED"]),
      },
    },
    post: {
      ...member("settings"),
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
