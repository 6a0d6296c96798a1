import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/openapi.json/route";
import { createPaymentSchema } from "@/lib/domain/payments/schemas";
import { withdrawalSchema } from "@/lib/domain/withdrawals/schemas";
import { toWithdrawalView } from "@/lib/domain/withdrawals/withdrawal-view";
import { API_TAGS } from "@/lib/web/openapi/tags";

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const response = GET();
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(doc.openapi).toBe("3.1.0");
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
  });

  it("groups every operation under one resource it lists, with a summary of at most five words (the rest in its description)", async () => {
    const doc = await GET().json();
    const tags = doc.tags as { name: string; description: string }[];
    expect(tags.map((tag) => tag.name)).toEqual(API_TAGS.map((tag) => tag.name));
    expect(tags[0]?.name).toBe("Payments");
    for (const tag of tags) expect(tag.description, tag.name).not.toBe("");
    type Operation = { operationId: string; summary?: string; tags?: string[] };
    const items = [...Object.values(doc.paths), ...Object.values(doc.webhooks)] as Record<string, Operation>[];
    const operations = items.flatMap((item) =>
      Object.entries(item)
        .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map(([, op]) => op),
    );
    expect(operations.length).toBeGreaterThan(50);
    const used = new Set<string>();
    for (const op of operations) {
      expect(op.tags, op.operationId).toHaveLength(1);
      expect(
        tags.map((tag) => tag.name),
        op.operationId,
      ).toContain(op.tags?.[0]);
      used.add(op.tags?.[0] ?? "");
      const words = (op.summary ?? "").trim().split(/\s+/).filter(Boolean);
      expect(words.length, `${op.operationId}: "${op.summary}"`).toBeGreaterThanOrEqual(1);
      expect(words.length, `${op.operationId}: "${op.summary}"`).toBeLessThanOrEqual(5);
    }
    // No resource listed without an operation under it.
    expect([...used].sort()).toEqual(tags.map((tag) => tag.name).sort());
    const create = doc.paths["/api/v1/payment/create"].post;
    expect(create.tags).toEqual(["Payments"]);
    // A shortened summary keeps its facts in the description.
    expect(doc.paths["/api/v1/payment/{sessionId}/status"].get.description).toContain("poll it every 5–10 s");
  });

  it("describes payment/create with the fields of the schema that validates it", async () => {
    const doc = await GET().json();
    const request = doc.components.schemas.CreatePaymentRequest;
    expect(Object.keys(request.properties).sort()).toEqual(Object.keys(createPaymentSchema.shape).sort());
    expect(request.required.sort()).toEqual(["amount", "tokenId"]);
    const create = doc.paths["/api/v1/payment/create"].post;
    expect(Object.keys(create.responses).sort()).toEqual(["201", "400", "401", "402", "403", "409", "429", "500"]);
    expect(create.security).toEqual([{ apiKey: ["payments:write"] }]);
    // Every /api/v1 operation names its scope; money-out ones never answer CORS.
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { security?: unknown; "x-cors"?: boolean }>>)) {
      if (!path.startsWith("/api/v1/") || path === "/api/v1/openapi.json") continue;
      for (const op of Object.values(item)) {
        expect(op.security, path).toEqual([{ apiKey: [expect.any(String)] }]);
        expect(op["x-cors"], path).toBe(!/withdrawal|refund|payouts/.test(path));
      }
    }
    expect(doc.paths["/api/v1/payment/history"].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      "cursor",
      "limit",
      "orderId",
      "page",
      "status",
    ]);
    expect(doc.components.schemas.PaymentSession.required).toEqual(
      expect.arrayContaining([
        "sessionId",
        "depositAddress",
        "ephemeralAddress",
        "qrCode",
        "amount",
        "token",
        "expiresAt",
        "status",
        "checkoutUrl",
      ]),
    );
  });

  it("lists the reasons of refusals (docs/design.md §22): every one on Error, each operation's own on its error answers", async () => {
    const doc = await GET().json();
    const all = doc.components.schemas.Error.properties.error.properties.reason.enum as string[];
    expect(all).toEqual(expect.arrayContaining(["refund-exceeds-refundable", "webhook-url-missing", "payment-still-pending"]));
    const reasonsOf = (path: string, status: string) =>
      doc.paths[path].post.responses[status].content["application/json"].schema.properties.error.properties.reason.enum as string[];
    expect(reasonsOf("/api/v1/payment/{sessionId}/refund", "400")).toEqual(
      expect.arrayContaining(["refund-exceeds-refundable", "payment-still-pending", "amount-zero"]),
    );
    expect(reasonsOf("/api/v1/payment/create", "402")).toEqual(expect.arrayContaining(["no-plan", "plan-quota-used-up"]));
    expect(reasonsOf("/api/v1/payment/create", "400")).not.toContain("refund-exceeds-refundable");
    for (const reason of reasonsOf("/api/v1/withdrawal/send", "400")) expect(all).toContain(reason);
  });

  it("describes refunds as the code counts them, and which refund a withdrawal pays out", async () => {
    const doc = await GET().json();
    const refund = doc.paths["/api/v1/payment/{sessionId}/refund"].post.description as string;
    // What arrived (receivedAmount, which an overpayment makes larger than amount) plus late transfers, never `amount`.
    expect(refund).toContain("its counted transfers (receivedAmount, which may exceed amount when overpaid) plus its late transfers");
    expect(refund).not.toContain("amount + late transfers");
    expect(refund).toContain("refund.created (with withdrawalId and txHash when sent at once");
    const withdrawal = doc.components.schemas.Withdrawal;
    expect(withdrawal.required).toContain("refundId");
    expect(withdrawal.properties.refundId.description).toMatch(/null for a withdrawal you sent/);
    const view = toWithdrawalView(
      {
        id: "w",
        txHash: "0x",
        amount: 1n,
        toAddress: "0x",
        status: "submitted",
        domainId: 1,
        fromAddress: "0x",
        createdAt: new Date(),
        confirmedAt: null,
        failureReason: null,
        refundId: null,
      } as Parameters<typeof toWithdrawalView>[0],
      { symbol: "T", decimals: 18 },
    );
    expect(Object.keys(view).sort()).toEqual(Object.keys(withdrawalSchema.shape).sort());
  });
});
