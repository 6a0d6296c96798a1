/**
 * OpenAPI 3.1 for the public API, generated from the very zod schemas that validate requests:
 * a field added to a schema shows up here, no hand-written copy to drift. Served at
 * GET /api/v1/openapi.json and written to a file by scripts/export-openapi.ts (`npm run lint:openapi`
 * lints that file with Redocly's recommended rules).
 */

import { createDocument } from "zod-openapi";
import { accountPaths } from "./account-paths";
import { approvalPaths } from "./approval-paths";
import { domainPaths } from "./domain-paths";
import { memberPaths } from "./member-paths";
import { pagePaths } from "./page-paths";
import { paymentPaths } from "./payment-paths";
import { payoutPaths } from "./payout-paths";
import { refundAndLinkPaths } from "./refund-link-paths";
import { signInPaths } from "./sign-in-paths";
import { API_TAGS } from "./tags";
import { webhookPaths } from "./webhooks";

// `WebhookEvent` and its families become components through the webhook deliveries' `payload`
// (an answer, so rendered once, as output); the `webhooks` bodies refer to them by $ref.

/** Every path, as zod-openapi takes it (the zod schemas themselves, not yet JSON Schema). */
export const documentPaths = {
  ...paymentPaths,
  ...refundAndLinkPaths,
  ...pagePaths,
  ...payoutPaths,
  ...signInPaths,
  ...accountPaths,
  ...memberPaths,
  ...approvalPaths,
  ...domainPaths,
};
export { webhookPaths };

function build() {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "BSC Pay API",
      version: "1.0.0",
      description:
        "Payment sessions for BEP-20 tokens on BNB Smart Chain. Every answer is an envelope {success, data | error}. Every operation has an operationId (the method name a code generator gives it); `webhooks` describes the events sent to a domain's webhookUrl, and the schema `WebhookEvent` is their union, told apart by `type`.",
    },
    servers: [{ url: "/", description: "The service this document was read from." }],
    // One per resource, in the order a shop reads them; every operation names one (tags.ts).
    tags: API_TAGS.map((tag) => ({ ...tag })),
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "x-api-key",
          description:
            'A secret key (bscp_live_…, for servers) or a publishable key (bscp_pk_live_…, for browser code: payments:write and payments:read only). Each operation lists the scope it needs; a key without it is refused with 401 UNAUTHORIZED naming the scope ("this API key lacks the `withdrawals` scope"). Only publishable keys get CORS answers, on payment operations (x-cors: true); withdrawal and refund operations never answer CORS. Setting merchantWallet on payment/create needs the payouts scope, and the maker of the key must hold payout-targets (the owner): otherwise 403 FORBIDDEN scope-exceeds-role. A key acts for the member who made it: with at most the scopes their current role holds (a smaller role takes scopes away at once); once they leave the account it is revoked (401); while the account requires two-factor of them and they have none, 403 FORBIDDEN two-factor-required-by-account.',
        },
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT from POST /api/user/token" },
      },
    },
    paths: documentPaths,
    webhooks: webhookPaths,
  });
}

let cached: ReturnType<typeof build> | undefined;
export function openApiDocument() {
  cached ??= build();
  return cached;
}
