import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { EVENT_TYPES } from "@/lib/domain/notifications/events";
import { documentPaths, openApiDocument } from "@/lib/web/openapi/document";

/**
 * What code generators and readers of the OpenAPI document rely on: every operation has a
 * stable operationId, declares its security (none: `[]`), and shows an example request and answers;
 * every example is what its zod schema accepts, so the examples cannot drift from the API.
 */

type Json = Record<string, any>;
const doc = openApiDocument() as unknown as Json;
const METHODS = ["get", "post", "put", "patch", "delete"];
const operations = (paths: Json) =>
  Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ where: `${method.toUpperCase()} ${path}`, op: item[method] as Json })),
  );

/** The method names an SDK generated from the document gets: changing one breaks its users. */
const OPERATION_IDS: Record<string, string> = {
  "POST /api/v1/payment/create": "createPayment",
  "GET /api/v1/payment/{sessionId}/status": "getPaymentStatus",
  "POST /api/v1/payment/{sessionId}/cancel": "cancelPayment",
  "GET /api/v1/payment/history": "listPayments",
  "POST /api/v1/withdrawal/send": "createWithdrawal",
  "GET /api/v1/withdrawal/history": "listWithdrawals",
  "GET /api/v1/withdrawal/{withdrawalId}": "getWithdrawal",
  "POST /api/v1/payment/{sessionId}/refund": "createRefund",
  "GET /api/v1/payment/{sessionId}/refunds": "listPaymentRefunds",
  "GET /api/v1/refund/{refundId}": "getRefund",
  "POST /api/v1/refund/{refundId}/cancel": "cancelRefund",
  "POST /api/v1/refund/{refundId}/claim-link": "issueClaimLink",
  "POST /api/refund/{refundId}/claim": "claimRefund",
  "GET /api/refund/{refundId}": "getRefundClaim",
  "GET /api/links/{slug}": "getPaymentLinkPage",
  "POST /api/v1/payouts": "createPayout",
  "GET /api/v1/payouts": "listPayouts",
  "GET /api/v1/payouts/{batchId}": "getPayoutBatch",
  "GET /api/user/payment-links": "listPaymentLinks",
  "POST /api/user/payment-links": "createPaymentLink",
  "GET /api/user/payment-links/{id}": "getPaymentLink",
  "PATCH /api/user/payment-links/{id}": "updatePaymentLink",
  "DELETE /api/user/payment-links/{id}": "deactivatePaymentLink",
  "POST /api/links/{slug}/pay": "payPaymentLink",
  "POST /api/user/register": "registerUser",
  "POST /api/user/token": "createBearerToken",
  "POST /api/user/password": "changePassword",
  "POST /api/user/two-factor": "startTwoFactor",
  "POST /api/user/two-factor/confirm": "confirmTwoFactor",
  "POST /api/user/sign-out-everywhere": "signOutEverywhere",
  "GET /api/user/settings": "getAccountSettings",
  "PATCH /api/user/settings": "updateAccountSettings",
  "GET /api/user/api-keys": "listApiKeys",
  "POST /api/user/api-keys": "createApiKey",
  "DELETE /api/user/api-keys/{id}": "revokeApiKey",
  "GET /api/user/tokens": "listTokens",
  "POST /api/user/tokens": "registerToken",
  "GET /api/user/domains": "listDomains",
  "POST /api/user/domains": "createDomain",
  "GET /api/user/domains/{id}": "getDomain",
  "PATCH /api/user/domains/{id}": "updateDomain",
  "POST /api/user/domains/{id}/webhook-secret": "rotateWebhookSecret",
  "POST /api/user/domains/{id}/webhook-secret/reveal": "revealWebhookSecret",
  "DELETE /api/user/domains/{id}/payout-change": "cancelPayoutChange",
  "POST /api/user/domains/{id}/webhook-test": "sendWebhookTest",
  "GET /api/user/domains/{id}/webhook-deliveries": "listWebhookDeliveries",
  "POST /api/user/webhook-deliveries/{id}/redeliver": "redeliverWebhook",
  "GET /api/user/audit": "listAuditEvents",
  "GET /api/user/gas": "getGasUsage",
  "GET /api/user/package": "getPlan",
  "POST /api/user/package": "choosePlan",
  "GET /api/user/accounts": "listAccounts",
  "GET /api/user/members": "listMembers",
  "PATCH /api/user/members/{userId}": "changeMemberRole",
  "DELETE /api/user/members/{userId}": "removeMember",
  "POST /api/user/members/transfer-ownership": "transferOwnership",
  "GET /api/user/invitations": "listInvitations",
  "POST /api/user/invitations": "createInvitation",
  "DELETE /api/user/invitations/{id}": "revokeInvitation",
  "POST /api/user/invitations/accept": "acceptInvitation",
  "GET /api/user/approvals": "listApprovals",
  "POST /api/user/approvals/{id}/approve": "approveApproval",
  "POST /api/user/approvals/{id}/reject": "rejectApproval",
  "GET /api/user/approval-policies": "listApprovalPolicies",
  "PUT /api/user/approval-policies/{tokenId}": "setApprovalPolicy",
  "DELETE /api/user/domains/{id}": "deleteDomain",
};
const PUBLIC = [
  "POST /api/refund/{refundId}/claim",
  "GET /api/refund/{refundId}",
  "GET /api/links/{slug}",
  "POST /api/links/{slug}/pay",
  "POST /api/user/register",
  "POST /api/user/token",
];

describe("operations of the OpenAPI document", () => {
  it("each have the operationId its SDK method is named after, camelCase and unique (webhooks included)", () => {
    const ids = Object.fromEntries(operations(doc.paths).map(({ where, op }) => [where, op.operationId]));
    expect(ids).toEqual(OPERATION_IDS);
    const all = [...operations(doc.paths), ...operations(doc.webhooks)].map(({ op }) => op.operationId as string);
    for (const id of all) expect(id).toMatch(/^[a-z][a-zA-Z]+$/);
    expect(new Set(all).size).toBe(all.length);
  });

  it("each declare their security: [] on the public ones, the API key's scope on /api/v1, a bearer token on /api/user", () => {
    for (const { where, op } of operations(doc.paths)) {
      if (PUBLIC.includes(where)) expect(op.security, where).toEqual([]);
      else if (where.includes(" /api/v1/")) expect(op.security, where).toEqual([{ apiKey: [expect.any(String)] }]);
      else expect(op.security, where).toEqual([{ bearer: [] }]);
    }
  });

  it("each show an example of their request body, their success answer and every error answer", () => {
    for (const { where, op } of operations(doc.paths)) {
      if (op.requestBody) expect(op.requestBody.content["application/json"].examples, where).toBeDefined();
      const statuses = Object.keys(op.responses);
      expect(statuses.some((s) => s.startsWith("2")) && statuses.some((s) => /^[45]/.test(s)), where).toBe(true);
      for (const status of statuses) {
        const examples = op.responses[status].content?.["application/json"]?.examples;
        expect(examples && Object.keys(examples).length > 0, `${where} ${status}`).toBe(true);
        for (const { value } of Object.values(examples as Json)) expect(value.success, `${where} ${status}`).toBe(status.startsWith("2"));
      }
    }
  });

  it("have examples their zod schemas accept: requests parse, answers parse to themselves", () => {
    let checked = 0;
    for (const { where, op } of operations(documentPaths)) {
      const body = op.requestBody?.content["application/json"];
      for (const [name, { value }] of Object.entries((body?.examples ?? {}) as Json)) {
        const result = (body.schema as z.ZodType).safeParse(value);
        expect(result.error?.issues, `${where} request ${name}`).toBeUndefined();
        checked++;
      }
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const media = response.content?.["application/json"];
        for (const [name, { value }] of Object.entries((media?.examples ?? {}) as Json)) {
          expect((media.schema as z.ZodType).parse(value), `${where} ${status} ${name}`).toEqual(value);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
  });
});

describe("webhooks of the OpenAPI document", () => {
  it("describe every event type, and WebhookEvent is their union discriminated on type", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const union = doc.components.schemas.WebhookEvent;
    expect(union.discriminator.propertyName).toBe("type");
    expect(Object.keys(union.discriminator.mapping).sort()).toEqual([...EVENT_TYPES].sort());
    const variants = union.oneOf.map((ref: { $ref: string }) => ref.$ref.replace("#/components/schemas/", ""));
    expect(variants).toEqual([
      "PaymentEvent",
      "WithdrawalEvent",
      "RefundEvent",
      "DomainPayoutChangedEvent",
      "PayoutEvent",
      "PayoutBatchEvent",
      "ApprovalEvent",
      "PingEvent",
    ]);
    const typesOf = (name: string) => doc.components.schemas[name].properties.type.enum as string[];
    expect(variants.flatMap(typesOf).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const body = doc.webhooks[type].post.requestBody.content["application/json"];
      expect(body.schema.$ref, type).toBe(union.discriminator.mapping[type]);
      expect(body.examples[type].value.type).toBe(type);
    }
  });
});

describe("scripts/export-openapi.ts", () => {
  it("writes the document the route serves, as 2-space JSON with a trailing newline, outside Next", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-"));
    try {
      const target = join(dir, "nested", "openapi.json");
      // As `npm run openapi:export` runs it: tsx, no Next.js, no configuration, no database.
      await promisify(execFile)(join("node_modules", ".bin", "tsx"), ["scripts/export-openapi.ts", target]);
      expect(readFileSync(target, "utf8")).toBe(`${JSON.stringify(doc, null, 2)}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
